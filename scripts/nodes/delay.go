package nodes

import (
	"context"
	"fmt"
	"time"

	"github.com/rodeo-run/rodeo/scripts"
)

// delay pauses the run. It verifies that the pause really lasted (a canceled run ends it early
// and fails instead).
type delay struct {
	d       time.Duration
	started time.Time
}

func init() {
	scripts.Register(scripts.Spec{
		Kind:     "delay",
		Aliases:  []string{"wait", "sleep"},
		Summary:  "Pause the run for a number of seconds.",
		Category: "flow",
		Timeout:  2 * time.Hour, // bounded by its own `time` (max 3600) plus slack; see Build
		Params: []scripts.Param{
			{Name: "time", Type: scripts.Number, Required: true, Min: scripts.F(0), Max: scripts.F(3600),
				Description: "seconds to pause (fractions allowed, at most 3600)", Example: 2},
		},
		Examples: []map[string]any{{"type": "delay", "time": 1.5}},
		Build: func(p *scripts.Params) (scripts.Node, error) {
			secs, err := p.Number("time")
			if err != nil {
				return nil, err
			}
			return &delay{d: time.Duration(secs * float64(time.Second))}, nil
		},
	})
}

func (n *delay) Run(ctx context.Context, env *scripts.Env) error {
	n.started = time.Now()
	t := time.NewTimer(n.d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (n *delay) Verify(ctx context.Context, env *scripts.Env) ([]scripts.Check, error) {
	slept := time.Since(n.started)
	return []scripts.Check{{Name: "paused", Passed: slept >= n.d,
		Detail: fmt.Sprintf("paused %dms of %dms", slept.Milliseconds(), n.d.Milliseconds())}}, nil
}

var _ scripts.Verifier = (*delay)(nil)
