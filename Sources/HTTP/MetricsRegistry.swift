import CoreMetrics
import NIOConcurrencyHelpers
import Prometheus
import RosterServerCore

/// The Prometheus side of the server's metrics: one registry per server, the counters the core
/// counts into (`counters`), and the text `GET /metrics` returns. Docs: docs/HTTP.md, "Metrics".
package final class MetricsRegistry: Sendable {
    private let registry = PrometheusCollectorRegistry()
    /// What the core counts into, made on this registry.
    package let counters: ServerMetrics
    /// Label values of the gauges set at scrape time, so that a deleted schedule's are dropped.
    private let scraped = NIOLockedValueBox<[String: Prometheus.Gauge]>([:])

    package init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        for (name, buckets) in ServerMetrics.durationBuckets { factory.durationHistogramBuckets[name] = buckets }
        counters = ServerMetrics(factory: factory)
    }

    /// One gauge value set at scrape time.
    package struct Reading {
        var name: String
        var help: String
        var labels: [(String, String)]
        var value: Double
    }

    /// The Prometheus text: the counters as they stand, and the gauges read now from `readings`
    /// (gauges of label sets no longer read, such as a deleted schedule's, are dropped).
    package func emit(readings: [Reading]) -> [UInt8] {
        scraped.withLockedValue { gauges in
            var seen = Set<String>()
            for reading in readings {
                let key = reading.name + "|" + reading.labels.map { "\($0.0)=\($0.1)" }.joined(separator: ",")
                seen.insert(key)
                let gauge =
                    gauges[key]
                    ?? registry.makeGauge(
                        descriptor: MetricNameDescriptor(
                            metricName: reading.name, unitName: "", helpText: reading.help), labels: reading.labels)
                gauges[key] = gauge
                gauge.set(reading.value)
            }
            for (key, gauge) in gauges where !seen.contains(key) {
                registry.unregisterGauge(gauge)
                gauges[key] = nil
            }
            // Under the lock: a concurrent scrape of another scope must not show these gauges.
            return registry.emitToBuffer()
        }
    }
}
