/** Lambda's default concurrency quota per account and region once raised from a new account's 10 (docs/internals/deploy.md). */
export const ACCOUNT_CONCURRENCY = 1_000;

/**
 * The most concurrent invocations each SQS event source may take (`maxConcurrency`), so that a
 * backlog on a queue can never take the concurrency the API's functions need: together at most
 * 320 of the account's 1,000, leaving 680 for the routes (`create-job` first) and the few
 * invocations Step Functions and the schedules make.
 *
 * - The fast lane carries the `wait=true` endpoints' work and every deadline timer
 *   (docs/internals/deadlines.md): its messages are short (a test-mode run, or a submission to the plane),
 *   so 200 pollers clear about 2,000 a second and a timer waits behind its backlog for well under
 *   the 5 s a deadline may be late, until admissions pass that rate (alarm `OldestFastWork`).
 * - The standard lane's slow work is capped lower, so it never starves the fast lane.
 * - Webhook deliveries wait on receivers (up to 15 s each): 50 pollers keep 500 in flight.
 * - The reference plane (`-c referencePlane=true`, staging) needs few.
 */
export const QUEUE_CONCURRENCY = { fastLane: 200, standardLane: 50, webhooks: 50, referencePlane: 20 } as const;
