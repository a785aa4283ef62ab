package server

import (
	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/rodeo-run/rodeo/scripts"
)

// metrics are rodeo's Prometheus series, on a registry of their own (no global state, so tests
// can build many servers).
type metrics struct {
	reg   *prometheus.Registry
	runs  *prometheus.CounterVec
	steps *prometheus.HistogramVec
}

func newMetrics(pool func() PoolStats, engine *scripts.Engine) *metrics {
	m := &metrics{reg: prometheus.NewRegistry()}
	m.runs = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "rodeo_runs_total", Help: "Finished runs by final status.",
	}, []string{"status"})
	m.steps = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "rodeo_step_duration_seconds", Help: "Duration of executed steps by node type and step status.",
		Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60},
	}, []string{"type", "status"})
	m.reg.MustRegister(m.runs, m.steps, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if engine != nil {
		m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "rodeo_runs_active", Help: "Runs executing now."},
			func() float64 { return float64(engine.Running()) }))
		engine.AddObserver(m.observe)
	}
	if pool != nil {
		gauge := func(name, help string, f func(PoolStats) float64) {
			m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, func() float64 { return f(pool()) }))
		}
		gauge("rodeo_pool_in_use", "Browser contexts leased by runs.", func(s PoolStats) float64 { return float64(s.InUse) })
		gauge("rodeo_pool_idle", "Warm browser contexts ready to lease.", func(s PoolStats) float64 { return float64(s.Idle) })
		gauge("rodeo_pool_waiting", "Lease requests waiting for a context.", func(s PoolStats) float64 { return float64(s.Waiting) })
		gauge("rodeo_pool_capacity", "Browser contexts the pool can hold.", func(s PoolStats) float64 { return float64(s.Capacity) })
		gauge("rodeo_pool_browsers", "Browser processes alive.", func(s PoolStats) float64 { return float64(s.Browsers) })
		counter := func(name, help string, f func(PoolStats) float64) {
			m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, func() float64 { return f(pool()) }))
		}
		counter("rodeo_pool_leases_total", "Browser contexts leased.", func(s PoolStats) float64 { return float64(s.Leases) })
		counter("rodeo_pool_crashes_total", "Browser processes that died.", func(s PoolStats) float64 { return float64(s.Crashes) })
		counter("rodeo_pool_recycles_total", "Browser processes recycled after their lease budget.", func(s PoolStats) float64 { return float64(s.Recycles) })
	}
	return m
}

func (m *metrics) observe(d scripts.Doc) {
	m.runs.WithLabelValues(d.Status).Inc()
	for _, st := range d.Steps {
		if st.Status == scripts.StepSkipped {
			continue
		}
		m.steps.WithLabelValues(st.Type, st.Status).Observe(float64(st.DurationMS) / 1000)
	}
}

func (m *metrics) handler() fiber.Handler {
	return adaptor.HTTPHandler(promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{}))
}
