/// What one fan-out run measured.
package struct FanoutResult {
    package var subscribers: Int
    package var pushes: Int
    /// Per subscriber per push: trigger → receipt.
    package var latency: LatencySummary
    /// Per push: trigger → the last subscriber's receipt; the median over pushes.
    package var completionMillis: Double
    /// With several nodes: the same, for the subscribers of the nodes the change was not made
    /// through (what the store's announcement and the catch-up add).
    package var otherNodesCompletionMillis: Double?
    /// Per push: the admin round trip (request to MutationResult), median and 99th percentile.
    /// The server answers before it queues the fan-out, so this is the commit's time plus
    /// whatever the machine's two cores are busy with.
    package var triggerMillis: Double
    package var triggerP99Millis: Double
    package var frameBytes: Int
    /// Server CPU (user + system) per push, and per subscriber connect (handshake and subscribe).
    package var cpuMillisPerPush: Double
    package var cpuMillisPerConnect: Double
    package var residentBytesPerSubscriber: Double?
    /// The same after the subscribers stayed idle for `idleSeconds` (when more than 1).
    package var residentBytesPerSubscriberAfterIdle: Double?
    /// Under callgrind: user-space instructions in the fan-out loop (the floor's: its write
    /// loop) per subscriber per push, and callgrind's output file.
    package var instructionsPerSubscriberPush: Double?
    package var callgrindOutput: String?
    package var pushFrame: [UInt8]?
    /// The same pushes as followed by a service's subscribers (topic ESCALATION): trigger to
    /// receipt, the last one's median, and the frame's size.
    package var escalation: (latency: LatencySummary, completionMillis: Double, frameBytes: Int)?
}
