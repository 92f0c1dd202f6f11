package io.github.throttle.engine;

/**
 * Every rule a {@link Store} keeps, whatever holds its counts: rate windows, give-backs, seats, reservations, limits
 * of one key sharing one window, and their mixes in one call. A store's test class extends this (or composes the
 * contracts it keeps) and gives the store; DESIGN.md, "Counting semantics", "When the answer is not simply yes or
 * no" and "Where features meet", are what the expected figures come from.
 */
public abstract class StoreContract implements WindowContract, GiveBackContract, SeatContract, ReservationContract,
        SharedCountContract, MixedCallContract {
}
