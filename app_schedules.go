package main

import (
	"context"
	"flag"
	"log/slog"
	"time"

	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/server"
	"github.com/rodeo-run/rodeo/store"
	"github.com/rodeo-run/rodeo/triggers"
)

// scheduleFlags configure the scheduler of `rodeo serve`.
type scheduleFlags struct {
	grace, minEvery time.Duration
	// claims is set on NATS (app_cluster.go): slots are claimed in JetStream KV too.
	claims triggers.SlotClaimer
}

func (a *App) addScheduleFlags(fs *flag.FlagSet, f *scheduleFlags) {
	fs.DurationVar(&f.grace, "schedule-grace", a.envDuration("RODEO_SCHEDULE_GRACE", triggers.DefaultScheduleGrace),
		"how late a schedule's slot missed while the server was down may still run, once (env RODEO_SCHEDULE_GRACE)")
	fs.DurationVar(&f.minEvery, "schedule-min-every", a.envDuration("RODEO_SCHEDULE_MIN_EVERY", triggers.DefaultScheduleMinEvery),
		"the shortest `every` a schedule may have; lower it only for tests (env RODEO_SCHEDULE_MIN_EVERY)")
}

// startScheduler runs the schedules of db on engine until the returned stop is called (which
// waits for the scheduler to finish its check). Call it after RecoverInterrupted, so a fire's
// overlap check sees no run of a previous life as still running.
func (a *App) startScheduler(f scheduleFlags, db *store.DB, engine *scripts.Engine, log *slog.Logger) (stop func()) {
	sc := triggers.NewScheduler(triggers.SchedulerConfig{Store: db, Engine: engine, Registry: scripts.DefaultRegistry, Logger: log,
		Grace: f.grace, MinEvery: f.minEvery, Timezone: triggers.ServerTimezone(a.Getenv), Claims: f.claims})
	server.AttachScheduler(engine, sc)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { sc.Run(ctx); close(done) }()
	return func() { cancel(); <-done }
}
