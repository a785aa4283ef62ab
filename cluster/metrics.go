package cluster

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics are a worker's Prometheus metrics (its /metrics).
type Metrics struct {
	registry     *prometheus.Registry
	InFlight     prometheus.Gauge
	Pulls        prometheus.Counter
	Redeliveries prometheus.Counter
	Runs         *prometheus.CounterVec
}

// NewMetrics makes the worker's metrics on a registry of their own (nil: a new one), with the
// Go and process collectors beside them.
func NewMetrics(reg *prometheus.Registry) *Metrics {
	if reg == nil {
		reg = prometheus.NewRegistry()
		reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	}
	m := &Metrics{
		registry: reg,
		InFlight: prometheus.NewGauge(prometheus.GaugeOpts{Name: "rodeo_worker_runs_in_flight", Help: "Runs this worker holds now."}),
		Pulls:    prometheus.NewCounter(prometheus.CounterOpts{Name: "rodeo_worker_pulls_total", Help: "Jobs pulled from the runs stream."}),
		Redeliveries: prometheus.NewCounter(prometheus.CounterOpts{Name: "rodeo_worker_redeliveries_total",
			Help: "Jobs pulled that JetStream had delivered before (their last worker stopped)."}),
		Runs: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "rodeo_worker_runs_total", Help: "Runs finished on this worker, by status."}, []string{"status"}),
	}
	reg.MustRegister(m.InFlight, m.Pulls, m.Redeliveries, m.Runs)
	return m
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}
