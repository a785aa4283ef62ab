package scripts

import (
	"context"

	"github.com/rodeo-run/rodeo/llm"
	"github.com/rodeo-run/rodeo/netguard"
	"github.com/rodeo-run/rodeo/sandbox"
	"github.com/rodeo-run/rodeo/store"
)

// Services are what nodes use besides the browser. Every field may be unset; a node that needs
// an unset one fails with an error that says how to configure it.
type Services struct {
	// Store is the server's bbolt store (sheets, outbox, saved scripts, resolution cache).
	Store *store.DB
	// LLM is the configured model; nil when none is (llm.Client methods then answer
	// llm_not_configured).
	LLM *llm.Client
	// LLMBelow is the semantic engine's confidence below which it asks the model (0: the
	// engine's default).
	LLMBelow float64
	// Mailer sends email; nil means messages go to the store's outbox.
	Mailer Mailer
	// CodeNodes allows python and bash nodes (and gpt4's code output). A server-wide switch.
	CodeNodes bool
	// PublicURL is the server's base URL, for links written into variables (sheets).
	PublicURL string
	// WorkDir holds the runs' working folders (code nodes, downloads, screenshots).
	WorkDir string
	// RecordSteps keeps a screenshot after every browser step of every run (--record; see
	// record.go). A request's "record": true does it for one run.
	RecordSteps bool
	// Sandbox is where code nodes run; the zero value is the bubblewrap sandbox with the default
	// limits and network (docs/security.md).
	Sandbox sandbox.Config
	// Net decides which addresses the HTTP nodes and open tab may reach; nil means
	// netguard.Default() (cloud metadata and link-local refused).
	Net *netguard.Guard
	// InlineStepValues keeps step values over MaxStepValue in the run document instead of
	// moving them to artifacts (stepsize.go): `rodeo run` prints its run and stores none.
	InlineStepValues bool
}

// Guard returns the run's outbound guard (never nil).
func (s *Services) Guard() *netguard.Guard {
	if s == nil || s.Net == nil {
		return netguard.Default()
	}
	return s.Net
}

// Mail is one outgoing message.
type Mail struct {
	To          []string     `json:"to"`
	Subject     string       `json:"subject"`
	Body        string       `json:"body"`
	Attachments []Attachment `json:"attachments,omitempty"`
	// MessageID, when set, is the Message-ID header (without angle brackets). The outbox sets
	// one per message, so a repeated attempt is recognizably the same message.
	MessageID string `json:"-"`
}

// Attachment is a file sent with a Mail.
type Attachment struct {
	Name        string `json:"name"`
	ContentType string `json:"content_type"`
	Data        []byte `json:"-"`
}

// Mailer delivers mail (SMTP in production, an in-process SMTP peer in tests).
type Mailer interface {
	Send(ctx context.Context, m Mail) error
}

// Services returns the run's services (never nil).
func (e *Env) Services() *Services {
	if e.runner == nil || e.runner.Services == nil {
		return &Services{}
	}
	return e.runner.Services
}

// NodeRuns reports how many times the node with the given id (its `id` field, or its path such as
// "3" or "2.then.0") has run in this run so far. Loops use it ("Loop Node Runs").
func (e *Env) NodeRuns(id string) int {
	e.counts.mu.Lock()
	defer e.counts.mu.Unlock()
	return e.counts.m[id]
}

func (e *Env) countRun(c *Call) {
	e.counts.mu.Lock()
	defer e.counts.mu.Unlock()
	if e.counts.m == nil {
		e.counts.m = map[string]int{}
	}
	e.counts.m[c.Path]++
	if c.ID != "" {
		e.counts.m[c.ID]++
	}
}
