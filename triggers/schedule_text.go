package triggers

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The plain-English schedules and the studio's dropdowns both become a five-field cron, which
// the schedule then shows back, so what will run is never a guess.

// ScheduleTextForms are the forms the plain-English grammar reads; an error names them.
var ScheduleTextForms = []string{
	"every 15 minutes", "every 2 hours", "every minute", "hourly", "daily", "every day at 9am",
	"every weekday at 9:30am", "weekends at 10:00", "on mondays and thursdays at 17:00",
	"every 1st of the month at 9am", "on the 1st and 15th of the month at noon", "monthly",
	"at 9am and 5pm",
}

// errScheduleText is the refusal of text the grammar cannot read.
func errScheduleText(text, why string) error {
	return fmt.Errorf("cannot read %q as a schedule (%s); the forms read are: %s; or give a five-field cron",
		text, why, strings.Join(ScheduleTextForms, ", "))
}

var weekdayNames = map[string]int{
	"sunday": 0, "sun": 0, "monday": 1, "mon": 1, "tuesday": 2, "tue": 2, "tues": 2,
	"wednesday": 3, "wed": 3, "thursday": 4, "thu": 4, "thur": 4, "thurs": 4,
	"friday": 5, "fri": 5, "saturday": 6, "sat": 6,
}

// weekdayNumber reads "monday", "mondays", "mon".
func weekdayNumber(s string) (int, bool) {
	if d, ok := weekdayNames[s]; ok {
		return d, true
	}
	d, ok := weekdayNames[strings.TrimSuffix(s, "s")]
	return d, ok
}

// TextToCron turns plain English ("every weekday at 9am") into a five-field cron.
func TextToCron(text string) (string, error) {
	toks := textTokens(text)
	if len(toks) == 0 {
		return "", errScheduleText(text, "it is empty")
	}
	days, times := toks, []string(nil)
	if i := slices.Index(toks, "at"); i >= 0 {
		days, times = toks[:i], toks[i+1:]
	}
	days = dropWords(days, "every", "each", "on", "the")
	if cron, ok, err := intervalCron(text, days); ok || err != nil {
		if err == nil && times != nil {
			err = errScheduleText(text, "an interval takes no time of day")
		}
		return cron, err
	}
	minute, hours := "0", "0"
	if times != nil {
		var err error
		if minute, hours, err = timesOfDay(text, times); err != nil {
			return "", err
		}
	}
	dom, dow, err := dayFields(text, days)
	if err != nil {
		return "", err
	}
	return strings.Join([]string{minute, hours, dom, "*", dow}, " "), nil
}

// textTokens lowercases and splits text on spaces and commas, joins "9 am" into "9am" and
// drops "and".
func textTokens(text string) []string {
	fields := strings.Fields(strings.NewReplacer(",", " ", ".", " ").Replace(strings.ToLower(text)))
	var out []string
	for _, f := range fields {
		if (f == "am" || f == "pm") && len(out) > 0 {
			out[len(out)-1] += f
			continue
		}
		if f != "and" && f != "&" {
			out = append(out, f)
		}
	}
	return out
}

func dropWords(toks []string, words ...string) []string {
	var out []string
	for _, t := range toks {
		if !slices.Contains(words, t) {
			out = append(out, t)
		}
	}
	return out
}

// intervalCron reads "15 minutes", "minute", "2 hours", "hour", "hourly". ok is false when the
// words are not an interval at all.
func intervalCron(text string, days []string) (cron string, ok bool, err error) {
	n, unit := 1, ""
	switch len(days) {
	case 1:
		unit = days[0]
	case 2:
		v, err := strconv.Atoi(days[0])
		if err != nil {
			return "", false, nil
		}
		n, unit = v, days[1]
	default:
		return "", false, nil
	}
	switch strings.TrimSuffix(unit, "s") {
	case "minute", "min":
		if n < 1 || 60%n != 0 {
			return "", true, errScheduleText(text, "minutes must divide an hour (1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30); for other intervals use every: \"7m\"")
		}
		if n == 1 {
			return "* * * * *", true, nil
		}
		return fmt.Sprintf("*/%d * * * *", n), true, nil
	case "hour", "hr", "hourly":
		if unit == "hourly" && len(days) != 1 {
			return "", false, nil
		}
		if n < 1 || 24%n != 0 {
			return "", true, errScheduleText(text, "hours must divide a day (1, 2, 3, 4, 6, 8, 12); for other intervals use every: \"5h\"")
		}
		if n == 1 {
			return "0 * * * *", true, nil
		}
		return fmt.Sprintf("0 */%d * * *", n), true, nil
	}
	return "", false, nil
}

// timesOfDay reads "9am", "9:30pm", "17:00", "noon", "midnight", several of them with the same
// minute ("9am and 5pm").
func timesOfDay(text string, toks []string) (minute, hours string, err error) {
	if len(toks) == 0 {
		return "", "", errScheduleText(text, "\"at\" needs a time such as 9am, 9:30pm or 17:00")
	}
	var hs []string
	for _, tok := range toks {
		h, m, ok := clockTime(tok)
		if !ok {
			return "", "", errScheduleText(text, fmt.Sprintf("%q is not a time such as 9am, 9:30pm or 17:00", tok))
		}
		if minute != "" && minute != strconv.Itoa(m) {
			return "", "", errScheduleText(text, "several times of day must share their minutes (9am and 5pm; 9:30 and 17:30)")
		}
		minute = strconv.Itoa(m)
		if hv := strconv.Itoa(h); !slices.Contains(hs, hv) {
			hs = append(hs, hv)
		}
	}
	return minute, strings.Join(hs, ","), nil
}

// clockTime reads one time of day; it also serves the dropdowns' "at".
func clockTime(tok string) (hour, minute int, ok bool) {
	switch tok {
	case "noon", "midday":
		return 12, 0, true
	case "midnight":
		return 0, 0, true
	}
	suffix := ""
	if strings.HasSuffix(tok, "am") || strings.HasSuffix(tok, "pm") {
		tok, suffix = tok[:len(tok)-2], tok[len(tok)-2:]
	}
	hs, ms, hasMin := strings.Cut(tok, ":")
	h, err := strconv.Atoi(hs)
	if err != nil || len(hs) > 2 {
		return 0, 0, false
	}
	m := 0
	if hasMin {
		if m, err = strconv.Atoi(ms); err != nil || len(ms) != 2 || m > 59 {
			return 0, 0, false
		}
	}
	switch suffix {
	case "":
		if h > 23 {
			return 0, 0, false
		}
	default:
		if h < 1 || h > 12 {
			return 0, 0, false
		}
		if h == 12 {
			h = 0
		}
		if suffix == "pm" {
			h += 12
		}
	}
	return h, m, true
}

// dayFields reads the day part: nothing (with a time), daily, day, weekday(s), weekend(s),
// weekday names, monthly, or days of the month ("1st 15th of month").
func dayFields(text string, days []string) (dom, dow string, err error) {
	switch strings.Join(days, " ") {
	case "", "daily", "day", "everyday", "days":
		return "*", "*", nil
	case "weekday", "weekdays":
		return "*", "1-5", nil
	case "weekend", "weekends":
		return "*", "0,6", nil
	case "weekly", "week":
		return "*", "0", nil
	case "monthly", "month":
		return "1", "*", nil
	}
	if i := slices.Index(days, "of"); i >= 0 {
		rest := dropWords(days[i+1:], "month", "every", "each")
		if len(rest) != 0 {
			return "", "", errScheduleText(text, "days of the month are written \"the 1st and 15th of the month\"")
		}
		var doms []string
		for _, tok := range dropWords(days[:i], "day", "days") {
			d, ok := ordinal(tok)
			if !ok {
				return "", "", errScheduleText(text, fmt.Sprintf("%q is not a day of the month such as 1st, 15th or 31st", tok))
			}
			doms = append(doms, strconv.Itoa(d))
		}
		if len(doms) == 0 {
			return "", "", errScheduleText(text, "name the days of the month: the 1st, the 15th")
		}
		return strings.Join(doms, ","), "*", nil
	}
	var dows []string
	for _, tok := range days {
		d, ok := weekdayNumber(tok)
		if !ok {
			return "", "", errScheduleText(text, fmt.Sprintf("%q is not a day, weekday or interval this grammar knows", tok))
		}
		if v := strconv.Itoa(d); !slices.Contains(dows, v) {
			dows = append(dows, v)
		}
	}
	return "*", strings.Join(dows, ","), nil
}

// ordinal reads "1st", "2nd", "23rd", "15th" or a bare "15" (1-31).
func ordinal(tok string) (int, bool) {
	for _, suf := range []string{"st", "nd", "rd", "th"} {
		tok = strings.TrimSuffix(tok, suf)
	}
	d, err := strconv.Atoi(tok)
	return d, err == nil && d >= 1 && d <= 31
}

// ScheduleDropdown is the studio's form: {"every": "week", "on": ["mon", "thu"], "at": "09:30"}.
// every is minute, hour, day, weekday, weekend, week or month; on names weekdays (week) or days
// of the month (month, numbers or "1st"); at is a time of day (or, for hour, the minute ":15").
type ScheduleDropdown struct {
	Every string   `json:"every"`
	On    []string `json:"on,omitempty"`
	At    string   `json:"at,omitempty"`
}

// DropdownUnits are the values of a dropdown's every.
var DropdownUnits = []string{"minute", "hour", "day", "weekday", "weekend", "week", "month"}

// DropdownToCron turns the studio's dropdown choice into a five-field cron.
func DropdownToCron(d ScheduleDropdown) (string, error) {
	minute, hour := "0", "0"
	unit := strings.ToLower(strings.TrimSpace(d.Every))
	at := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(d.At), " ", ""))
	if at != "" && unit != "hour" && unit != "minute" {
		h, m, ok := clockTime(at)
		if !ok {
			return "", fmt.Errorf("at: %q is not a time such as 09:30, 9am or 5:30pm", d.At)
		}
		minute, hour = strconv.Itoa(m), strconv.Itoa(h)
	}
	needOn := func(want bool) error {
		if !want && len(d.On) > 0 {
			return fmt.Errorf("on: only every week (weekdays) and every month (days of the month) take on")
		}
		if want && len(d.On) == 0 {
			return fmt.Errorf("on: every %s needs on: %s", unit, map[string]string{"week": `["mon", "thu"]`, "month": `["1", "15"]`}[unit])
		}
		return nil
	}
	switch unit {
	case "minute":
		if at != "" {
			return "", fmt.Errorf("at: every minute takes no time")
		}
		return "* * * * *", needOn(false)
	case "hour":
		if at != "" {
			m, err := strconv.Atoi(strings.TrimPrefix(at, ":"))
			if err != nil || m < 0 || m > 59 {
				return "", fmt.Errorf("at: every hour takes the minute past the hour, such as \":15\"")
			}
			minute = strconv.Itoa(m)
		}
		return minute + " * * * *", needOn(false)
	case "day", "weekday", "weekend":
		dow := map[string]string{"day": "*", "weekday": "1-5", "weekend": "0,6"}[unit]
		return fmt.Sprintf("%s %s * * %s", minute, hour, dow), needOn(false)
	case "week", "month":
		if err := needOn(true); err != nil {
			return "", err
		}
		var list []string
		for _, v := range d.On {
			v = strings.ToLower(strings.TrimSpace(v))
			n, ok := weekdayNumber(v)
			if unit == "month" {
				n, ok = ordinal(v)
			}
			if !ok {
				return "", fmt.Errorf("on: %q is not a %s", v, map[string]string{"week": "weekday (mon … sun)", "month": "day of the month (1-31)"}[unit])
			}
			if s := strconv.Itoa(n); !slices.Contains(list, s) {
				list = append(list, s)
			}
		}
		if unit == "week" {
			return fmt.Sprintf("%s %s * * %s", minute, hour, strings.Join(list, ",")), nil
		}
		return fmt.Sprintf("%s %s %s * *", minute, hour, strings.Join(list, ",")), nil
	}
	return "", fmt.Errorf("every: %q is not one of %s, nor an interval such as \"15m\" or \"2h\"", d.Every, strings.Join(DropdownUnits, ", "))
}
