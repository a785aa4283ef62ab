package server

import (
	"errors"
	"log/slog"
	"math"
	"strconv"

	"github.com/gofiber/fiber/v2"
	"github.com/rodeo-run/rodeo/errs"
)

// statusOf is the one table from error codes to HTTP statuses.
var statusOf = map[string]int{
	errs.InvalidJSON:        fiber.StatusBadRequest,
	errs.InvalidConfig:      fiber.StatusBadRequest,
	errs.InvalidKey:         fiber.StatusUnauthorized,
	errs.Forbidden:          fiber.StatusForbidden,
	errs.NotFound:           fiber.StatusNotFound,
	errs.TooLarge:           fiber.StatusRequestEntityTooLarge,
	errs.RateLimited:        fiber.StatusTooManyRequests,
	errs.Busy:               fiber.StatusServiceUnavailable,
	errs.BrowserUnavailable: fiber.StatusServiceUnavailable,
	"method_not_allowed":    fiber.StatusMethodNotAllowed,
	errs.Internal:           fiber.StatusInternalServerError,
	errs.AddressBlocked:     fiber.StatusForbidden,

	// named browser profiles
	errs.InvalidProfile: fiber.StatusBadRequest,

	// desktop and media nodes
	errs.DesktopUnavailable:       fiber.StatusServiceUnavailable,
	errs.IntegrationNotConfigured: fiber.StatusBadRequest,

	// scale-out over NATS
	errs.QueueUnavailable: fiber.StatusServiceUnavailable,
}

// retryAfter is the Retry-After (seconds) sent with 429 and 503 when the error names no wait.
const retryAfter = "2"

type errorBody struct {
	Error errorFields `json:"error"`
}

type errorFields struct {
	Code      string        `json:"code"`
	Message   string        `json:"message"`
	Details   []errs.Detail `json:"details,omitempty"`
	RequestID string        `json:"request_id,omitempty"`
}

// errorHandler renders every error of the HTTP layer as API.md's error body. Uncoded errors are
// bugs: they are logged with the request id and shown only as "internal error" plus that id.
func (s *Server) errorHandler(c *fiber.Ctx, err error) error {
	var fe *fiber.Error
	if errors.As(err, &fe) {
		switch fe.Code {
		case fiber.StatusRequestEntityTooLarge:
			err = errs.E(errs.TooLarge, "request body is larger than the %d-byte limit", s.cfg.BodyLimit)
		case fiber.StatusNotFound:
			err = errs.E(errs.NotFound, "no such endpoint: %s %s", c.Method(), c.Path())
		case fiber.StatusMethodNotAllowed:
			err = errs.E("method_not_allowed", "%s is not allowed on %s", c.Method(), c.Path())
		case fiber.StatusBadRequest:
			err = errs.E(errs.InvalidJSON, "bad request: %s", fe.Message)
		default:
			err = &errs.Error{Code: errs.Internal, Message: fe.Message}
		}
	}
	var e *errs.Error
	body := errorBody{}
	rid := requestID(c)
	if errors.As(err, &e) && e.Code != errs.Internal {
		body.Error = errorFields{Code: e.Code, Message: e.Message, Details: e.Details}
	} else {
		s.log.Error("internal error", "request_id", rid, "method", c.Method(), "path", c.Path(), "err", err)
		body.Error = errorFields{Code: errs.Internal, Message: "internal error", RequestID: rid}
	}
	status, ok := statusOf[body.Error.Code]
	if !ok {
		status = fiber.StatusBadRequest
	}
	if status == fiber.StatusServiceUnavailable || status == fiber.StatusTooManyRequests {
		wait := retryAfter
		if e != nil && e.RetryAfter > 0 {
			// Whole seconds, rounded up: a client that waits less is refused again.
			wait = strconv.Itoa(int(math.Ceil(e.RetryAfter.Seconds())))
		}
		c.Set(fiber.HeaderRetryAfter, wait)
	}
	return c.Status(status).JSON(body)
}

func requestID(c *fiber.Ctx) string {
	if v, ok := c.Locals("requestid").(string); ok {
		return v
	}
	return ""
}

// logRequests logs one line per request with its id; bodies (which carry keys) are never logged.
func logRequests(log *slog.Logger) fiber.Handler {
	return func(c *fiber.Ctx) error {
		err := c.Next()
		if err != nil {
			if herr := c.App().ErrorHandler(c, err); herr != nil {
				return herr
			}
		}
		log.Info("request", "request_id", requestID(c), "method", c.Method(), "path", c.Path(),
			"status", c.Response().StatusCode(), "ip", c.IP())
		return nil
	}
}
