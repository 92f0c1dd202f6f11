package io.github.throttle.limiter;

/** The rate limits of one plan ({@code ""}: the default limits) counting in one bucket: what an override replaces. */
public record BucketPlan(String bucket, String plan) {

    @Override
    public String toString() {
        return "bucket " + bucket + ", " + (plan.isEmpty() ? "default limits" : "plan " + plan);
    }
}
