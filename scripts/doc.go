package scripts

import (
	"time"

	"github.com/rodeo-run/rodeo/errs"
)

// Run statuses. queued and running are transient; the rest are final.
const (
	StatusQueued    = "queued"
	StatusRunning   = "running"
	StatusSucceeded = "succeeded"
	StatusFailed    = "failed"
	StatusCanceled  = "canceled"
	StatusTimedOut  = "timed_out"
	// StatusExpired is a queued run that no browser took before its deadline (extension runs).
	StatusExpired = "expired"
)

// Step statuses.
const (
	StepOK      = "ok"
	StepFailed  = "failed"
	StepSkipped = "skipped"
)

// Final reports whether a run status is final.
func Final(status string) bool {
	return status != StatusQueued && status != StatusRunning && status != ""
}

// ErrorBody is the {"code","message"} of a failed step or run.
type ErrorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// ErrorOf renders err for the run document; nil stays nil.
func ErrorOf(err error) *ErrorBody {
	if err == nil {
		return nil
	}
	code, msg := errs.Public(err)
	return &ErrorBody{Code: code, Message: msg}
}

// Verification is the record of a node's verification loop.
type Verification struct {
	Passed   bool    `json:"passed"`
	Attempts int     `json:"attempts"`
	Checks   []Check `json:"checks"`
}

// Step is the record of one executed node.
type Step struct {
	Index        int            `json:"index"`
	Path         string         `json:"path,omitempty"`
	Type         string         `json:"type"`
	Status       string         `json:"status"`
	DurationMS   int64          `json:"duration_ms"`
	Verification *Verification  `json:"verification"`
	Detail       map[string]any `json:"detail"`
	Error        *ErrorBody     `json:"error"`
}

// Doc is the run document of API.md: what POST /agents answers and GET /runs/{id} returns.
type Doc struct {
	RunID  string         `json:"run_id"`
	Status string         `json:"status"`
	Goal   string         `json:"goal"`
	Data   map[string]any `json:"data"`
	Steps  []Step         `json:"steps"`
	Error  *ErrorBody     `json:"error"`
	Source string         `json:"source,omitempty"`
	// Script names the saved script a run ran (webhook triggers); absent for ad-hoc agents.
	Script *ScriptRef `json:"script,omitempty"`
	// Profile is the named browser profile the run used (profile.go); absent for none.
	Profile string `json:"profile,omitempty"`
	// Trigger names the schedule, address, number or watch that started a run, and the slot a
	// schedule fired for; absent for runs started by the API, the CLI or a webhook.
	Trigger    *TriggerRef `json:"trigger,omitempty"`
	Created    time.Time   `json:"created"`
	Started    *time.Time  `json:"started,omitempty"`
	Finished   *time.Time  `json:"finished,omitempty"`
	DurationMS int64       `json:"duration_ms"`
	// Worker names the worker process that ran the run (scale-out over NATS, docs/scale-out.md);
	// absent for runs of the server's own pool.
	Worker string `json:"worker,omitempty"`
}

// ScriptRef names a saved script and the version of it that a run ran.
type ScriptRef struct {
	Name    string `json:"name"`
	Version int    `json:"version"`
}

// TriggerRef names what started a run: a schedule's, email address's, phone number's or watch's
// id, and for a schedule the slot it fired for.
type TriggerRef struct {
	ID   string     `json:"id"`
	Slot *time.Time `json:"slot,omitempty"`
}
