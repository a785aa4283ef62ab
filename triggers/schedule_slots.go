package triggers

import (
	"fmt"
	"strings"
	"time"

	"github.com/robfig/cron/v3"
)

// ScheduleTimes yields a schedule's slots: Next is the first slot strictly after t, or the zero
// time when there is none within scheduleHorizon.
type ScheduleTimes interface {
	Next(t time.Time) time.Time
}

// scheduleHorizon bounds the search for a cron's next slot: a cron that matches no day in five
// years ("0 0 30 2 *") never fires, and is refused.
const scheduleHorizon = 5 * 366

// maxDSTShift is more than any daylight-saving change (most are an hour, Lord Howe's half an
// hour); it bounds the wall-clock window a slot search has to look at.
const maxDSTShift = 3 * time.Hour

// cronTimes are the slots of a five-field cron in a timezone. robfig/cron parses the expression
// into its field sets; the slots are computed here from wall-clock dates because robfig's own
// Next steps through absolute hours, which skips a day's run when the clocks spring forward over
// its time and fires twice when they fall back. Here:
//
//   - a wall time that does not exist (the skipped hour) fires later by the length of the gap
//     (02:30 becomes 03:30), as Go's time.Date and Java's ZonedDateTime resolve it, so a daily run
//     never loses its day;
//   - a wall time that happens twice (the repeated hour) fires once, at its first occurrence,
//     unless the hour field is `*`: then both passes fire, so "every 15 minutes" keeps running
//     every 15 real minutes (Vixie cron's rule).
//
// Slots are instants, so two wall times that resolve to the same instant are one slot.
type cronTimes struct {
	spec    *cron.SpecSchedule
	loc     *time.Location
	anyHour bool
}

// cronStarBit is robfig's marker of a field written as `*` (or `?`): a day-of-month or
// day-of-week field marked so does not widen the other (cron's OR rule for the two day fields).
const cronStarBit = 1 << 63

var cronParser = cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// parseCron reads a standard five-field cron (or @hourly, @daily, @weekly, @monthly, @yearly)
// for timezone loc.
func parseCron(expr string, loc *time.Location) (*cronTimes, error) {
	expr = strings.TrimSpace(expr)
	if strings.HasPrefix(expr, "CRON_TZ=") || strings.HasPrefix(expr, "TZ=") {
		return nil, fmt.Errorf("put the timezone in the schedule's timezone field, not in the cron")
	}
	if strings.HasPrefix(expr, "@every") {
		return nil, fmt.Errorf("use the schedule's every field for fixed intervals, not @every")
	}
	sched, err := cronParser.Parse(expr)
	if err != nil {
		return nil, err
	}
	spec, ok := sched.(*cron.SpecSchedule)
	if !ok {
		return nil, fmt.Errorf("not a five-field cron")
	}
	const allHours = 1<<24 - 1
	return &cronTimes{spec: spec, loc: loc, anyHour: spec.Hour&allHours == allHours}, nil
}

func (c *cronTimes) dayMatches(d time.Time) bool {
	s := c.spec
	if 1<<uint(d.Month())&s.Month == 0 {
		return false
	}
	dom := 1<<uint(d.Day())&s.Dom != 0
	dow := 1<<uint(d.Weekday())&s.Dow != 0
	if s.Dom&cronStarBit != 0 || s.Dow&cronStarBit != 0 {
		return dom && dow
	}
	return dom || dow
}

// Next is the first slot after t. It walks wall-clock dates from a little before t's own (a
// slot resolved across a gap lands up to maxDSTShift after its wall time) and keeps the earliest
// instant after t; it stops maxDSTShift of wall time past the best found.
func (c *cronTimes) Next(t time.Time) time.Time {
	local := t.In(c.loc)
	from := wallOf(local).Add(-maxDSTShift) // wall times before this resolve to instants <= t
	day := time.Date(from.Year(), from.Month(), from.Day(), 0, 0, 0, 0, time.UTC)
	var best, bestWall time.Time
	for i := 0; i < scheduleHorizon; i, day = i+1, day.AddDate(0, 0, 1) {
		if !best.IsZero() && day.After(bestWall.Add(maxDSTShift)) {
			break
		}
		if !c.dayMatches(day) {
			continue
		}
		for h := 0; h < 24; h++ {
			if 1<<uint(h)&c.spec.Hour == 0 {
				continue
			}
			for m := 0; m < 60; m++ {
				if 1<<uint(m)&c.spec.Minute == 0 {
					continue
				}
				wall := day.Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute)
				if wall.Before(from) {
					continue
				}
				if !best.IsZero() && wall.After(bestWall.Add(maxDSTShift)) {
					return best
				}
				for _, at := range c.instants(wall) {
					if at.After(t) && (best.IsZero() || at.Before(best)) {
						best, bestWall = at, wall
					}
				}
			}
		}
	}
	return best
}

// instants resolves a wall time (given as the same reading in UTC) to the slot instants it
// stands for under the rules of cronTimes.
func (c *cronTimes) instants(wall time.Time) []time.Time {
	before := offsetAt(wall.Add(-14*time.Hour), c.loc)
	after := offsetAt(wall.Add(14*time.Hour), c.loc)
	var out []time.Time
	for _, off := range []int{before, after} {
		at := wall.Add(-time.Duration(off) * time.Second)
		if wallOf(at.In(c.loc)).Equal(wall) && (len(out) == 0 || !out[0].Equal(at)) {
			out = append(out, at)
		}
	}
	switch {
	case len(out) == 0: // in the gap: later by the gap's length
		return []time.Time{wall.Add(-time.Duration(before) * time.Second)}
	case len(out) == 2 && !c.anyHour: // repeated: the first pass only
		if out[1].Before(out[0]) {
			out[0] = out[1]
		}
		return out[:1]
	}
	return out
}

// offsetAt is loc's UTC offset in seconds at the instant whose UTC reading is approx.
func offsetAt(approx time.Time, loc *time.Location) int {
	_, off := approx.In(loc).Zone()
	return off
}

// wallOf is t's wall-clock reading as the same reading in UTC (to compare and step wall times
// without a zone's gaps and repeats).
func wallOf(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), 0, time.UTC)
}

// everyTimes are fixed intervals counted from an anchor (the schedule's creation or last
// change): anchor + k·every. They are absolute durations, so daylight-saving changes do not move
// them.
type everyTimes struct {
	anchor time.Time
	every  time.Duration
}

func (e everyTimes) Next(t time.Time) time.Time {
	if t.Before(e.anchor) {
		return e.anchor.Add(e.every)
	}
	k := t.Sub(e.anchor)/e.every + 1
	return e.anchor.Add(k * e.every)
}

// nextTimes lists the first n slots after t.
func nextTimes(ts ScheduleTimes, t time.Time, n int) []time.Time {
	out := make([]time.Time, 0, n)
	for len(out) < n {
		if t = ts.Next(t); t.IsZero() {
			break
		}
		out = append(out, t)
	}
	return out
}
