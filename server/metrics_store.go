package server

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/rodeo-run/rodeo/store"
)

// addStore registers the store's size and retention series: the file's size, the bytes in use
// in it (what --max-store bounds; the difference is what `rodeo store compact` would return to
// the disk) and the runs retention pruned.
func (m *metrics) addStore(db *store.DB) {
	if db == nil {
		return
	}
	size := func(pick func(store.Size) int64) func() float64 {
		return func() float64 {
			s, err := db.Size()
			if err != nil {
				return 0
			}
			return float64(pick(s))
		}
	}
	m.reg.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "rodeo_store_file_bytes", Help: "Size of the store file on disk."},
			size(func(s store.Size) int64 { return s.File })),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "rodeo_store_used_bytes", Help: "Bytes in use in the store file (what --max-store bounds)."},
			size(func(s store.Size) int64 { return s.Used })),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "rodeo_store_pruned_runs_total", Help: "Finished runs deleted by retention (--keep-runs, --max-store)."},
			func() float64 { return float64(db.PrunedRuns()) }),
	)
}
