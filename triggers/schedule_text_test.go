package triggers

import (
	"strings"
	"testing"
)

func TestTextToCron(t *testing.T) {
	cases := []struct{ text, cron string }{
		{"every 15 minutes", "*/15 * * * *"},
		{"Every 5 mins", "*/5 * * * *"},
		{"every minute", "* * * * *"},
		{"every 2 hours", "0 */2 * * *"},
		{"every hour", "0 * * * *"},
		{"hourly", "0 * * * *"},
		{"daily", "0 0 * * *"},
		{"every day at 9am", "0 9 * * *"},
		{"every day at 9 AM", "0 9 * * *"},
		{"everyday at 5:30pm", "30 17 * * *"},
		{"at 17:00", "0 17 * * *"},
		{"at noon", "0 12 * * *"},
		{"daily at midnight", "0 0 * * *"},
		{"at 12am", "0 0 * * *"},
		{"at 12pm", "0 12 * * *"},
		{"every weekday at 9am", "0 9 * * 1-5"},
		{"weekdays at 9:30", "30 9 * * 1-5"},
		{"weekends at 10:00", "0 10 * * 0,6"},
		{"on Mondays and Thursdays at 17:00", "0 17 * * 1,4"},
		{"every monday at 9am", "0 9 * * 1"},
		{"mon, wed and fri at 8:15am", "15 8 * * 1,3,5"},
		{"every sunday", "0 0 * * 0"},
		{"every 1st of the month at 9am", "0 9 1 * *"},
		{"on the 1st and 15th of the month at noon", "0 12 1,15 * *"},
		{"the 31st of every month at 23:59", "59 23 31 * *"},
		{"monthly", "0 0 1 * *"},
		{"weekly", "0 0 * * 0"},
		{"every day at 9am and 5pm", "0 9,17 * * *"},
	}
	for _, tc := range cases {
		got, err := TextToCron(tc.text)
		if err != nil || got != tc.cron {
			t.Errorf("%q = %q, %v; want %q", tc.text, got, err, tc.cron)
			continue
		}
		if _, err := parseCron(got, nil); err != nil {
			t.Errorf("%q gave %q, which robfig/cron refuses: %v", tc.text, got, err)
		}
	}
}

func TestTextToCronRefused(t *testing.T) {
	cases := []struct{ text, says string }{
		{"", "empty"},
		{"whenever you like", "not a day"},
		{"every 7 minutes", `every: "7m"`},
		{"every 5 hours", "divide a day"},
		{"every 15 minutes at 9am", "no time of day"},
		{"every day at 25:00", "not a time"},
		{"every day at 13pm", "not a time"},
		{"every day at 9:30 and 5pm", "share their minutes"},
		{"on the 32nd of the month", "not a day of the month"},
		{"every funday at 9", "not a day"},
		{"every day at", "needs a time"},
	}
	for _, tc := range cases {
		_, err := TextToCron(tc.text)
		if err == nil {
			t.Errorf("%q was read", tc.text)
			continue
		}
		// The refusal says why and names the forms it reads.
		if !strings.Contains(err.Error(), tc.says) || !strings.Contains(err.Error(), "every weekday at 9:30am") {
			t.Errorf("%q: %v; want it to say %q and list the forms", tc.text, err, tc.says)
		}
	}
}

func TestDropdownToCron(t *testing.T) {
	cases := []struct {
		d    ScheduleDropdown
		cron string
		err  string
	}{
		{ScheduleDropdown{Every: "week", On: []string{"mon", "thu"}, At: "09:30"}, "30 9 * * 1,4", ""},
		{ScheduleDropdown{Every: "day", At: "5:30 pm"}, "30 17 * * *", ""},
		{ScheduleDropdown{Every: "weekday", At: "08:00"}, "0 8 * * 1-5", ""},
		{ScheduleDropdown{Every: "weekend"}, "0 0 * * 0,6", ""},
		{ScheduleDropdown{Every: "month", On: []string{"1", "15th"}, At: "noon"}, "0 12 1,15 * *", ""},
		{ScheduleDropdown{Every: "hour", At: ":15"}, "15 * * * *", ""},
		{ScheduleDropdown{Every: "minute"}, "* * * * *", ""},
		{ScheduleDropdown{Every: "week", At: "09:30"}, "", "needs on"},
		{ScheduleDropdown{Every: "day", On: []string{"mon"}}, "", "only every week"},
		{ScheduleDropdown{Every: "week", On: []string{"funday"}}, "", "not a weekday"},
		{ScheduleDropdown{Every: "month", On: []string{"40"}}, "", "not a day of the month"},
		{ScheduleDropdown{Every: "day", At: "25:00"}, "", "not a time"},
		{ScheduleDropdown{Every: "fortnight"}, "", "is not one of minute, hour"},
	}
	for _, tc := range cases {
		got, err := DropdownToCron(tc.d)
		switch {
		case tc.err == "" && (err != nil || got != tc.cron):
			t.Errorf("%+v = %q, %v; want %q", tc.d, got, err, tc.cron)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%+v = %q, %v; want an error saying %q", tc.d, got, err, tc.err)
		}
	}
}
