// Package errs is rodeo's one error vocabulary: every failure a user can see carries a stable
// snake_case code and a message that is safe to show. The HTTP layer maps codes to statuses in
// one table (server/errors.go); the run document shows codes verbatim. Anything without a code is
// internal and is shown only as "internal error" plus a request id.
package errs

import (
	"errors"
	"fmt"
	"time"
)

// Codes of the external contract (API.md). They never change meaning once published.
const (
	InvalidJSON        = "invalid_json"
	InvalidConfig      = "invalid_config"
	InvalidKey         = "invalid_key"
	NotFound           = "not_found"
	TooLarge           = "too_large"
	RateLimited        = "rate_limited"
	Busy               = "busy"
	Internal           = "internal"
	TargetNotFound     = "target_not_found"
	AmbiguousTarget    = "ambiguous_target"
	NavigationFailed   = "navigation_failed"
	Timeout            = "timeout"
	Canceled           = "canceled"
	VerificationFailed = "verification_failed"
	BrowserCrashed     = "browser_crashed"
	BrowserUnavailable = "browser_unavailable"
	LLMNotConfigured   = "llm_not_configured"
	CodeFailed         = "code_failed"
	NodeFailed         = "node_failed"
	VariableNotSet     = "variable_not_set"
	// AddressBlocked is an outbound request to an address the server refuses (cloud metadata,
	// link-local; private and loopback with --deny-private-network).
	AddressBlocked = "address_blocked"
	// Forbidden is a request whose credential is valid in form but refused (a webhook signature
	// that does not match).
	Forbidden = "forbidden"
)

// Codes of named browser profiles.
const (
	// InvalidProfile: a profile name that is not 1-64 letters, digits, '.', '_' or '-'.
	InvalidProfile = "invalid_profile"
)

// Codes of the desktop and media nodes.
const (
	// DesktopUnavailable: a desktop node ran on a server with no X display (DISPLAY/--display).
	DesktopUnavailable = "desktop_unavailable"
	// IntegrationNotConfigured: a node needs an external service the server was not given
	// (synthetic_video without RODEO_VIDEO_URL).
	IntegrationNotConfigured = "integration_not_configured"
)

// Codes of scale-out over NATS (docs/scale-out.md).
const (
	// QueueUnavailable: the server could not hand a run to the workers (NATS refused the job).
	QueueUnavailable = "queue_unavailable"
)

// Detail is one problem of an invalid request, e.g. one bad parameter of one node.
type Detail struct {
	Node    *int   `json:"node,omitempty"`
	Field   string `json:"field,omitempty"`
	Problem string `json:"problem"`
	// Code, when set, is a more specific code than the request's (integration_not_configured).
	Code string `json:"code,omitempty"`
}

// Error is an error with a code. Err, when set, is the cause (kept for errors.Is/As and logs,
// never shown to users unless Message repeats it).
type Error struct {
	Code    string
	Message string
	Details []Detail
	Err     error
	// RetryAfter, when set, is how long a caller should wait before trying again (429, 503).
	RetryAfter time.Duration
}

func (e *Error) Error() string {
	if e.Err != nil && e.Message == "" {
		return e.Code + ": " + e.Err.Error()
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// E builds a coded error with a formatted message. A %w verb wraps its argument as the cause.
func E(code, format string, args ...any) *Error {
	err := fmt.Errorf(format, args...)
	return &Error{Code: code, Message: err.Error(), Err: errors.Unwrap(err)}
}

// Wrap gives err a code unless it already has one; the message is err's text.
func Wrap(code string, err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return &Error{Code: code, Message: err.Error(), Err: err}
}

// Code reports the code of the outermost coded error in err's chain, or Internal.
func Code(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return Internal
}

// Is reports whether err carries the given code.
func Is(err error, code string) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}

// Public is what a user may see of err: its code and message. Uncoded errors become
// "internal error" so that no internal detail (paths, SQL, stack) leaks.
func Public(err error) (code, message string) {
	var e *Error
	if errors.As(err, &e) {
		return e.Code, e.Message
	}
	return Internal, "internal error"
}
