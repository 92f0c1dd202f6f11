package io.github.throttle.bench;

/** One part of the benchmark: it measures, then adds its table to the results. */
interface Section {

    /** Its name in {@code BENCH_ONLY}. */
    String name();

    void run(Context ctx) throws Exception;
}
