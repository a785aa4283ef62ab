package scripts

import (
	"github.com/rodeo-run/rodeo/errs"
)

// One run at a time per browser profile: two runs sharing cookies and local storage at once
// would overwrite each other's state at their ends, and a login flow in one would race the
// other. A direct run (POST /agents, Start) on a profile in use answers busy at once, like a
// saturated pool; a queued run (triggers, Enqueue) waits in the queue until the profile is free,
// while runs behind it on other profiles go ahead.

// profileKept refuses a run with a profile that would go to a cluster worker (Remote): a worker
// has no store to load the profile from or save it to, and running without it would silently
// drop the logins the user asked to keep.
func (e *Engine) profileKept(s *Script, opt StartOptions) error {
	if s.Profile == "" || e.Remote == nil || opt.Session != nil || e.Runner.Browsers != nil || !NeedsBrowser(s.Nodes) {
		return nil
	}
	return errs.E(errs.InvalidProfile, "browser profile %s cannot be used here: this server sends its browser runs to cluster workers (--nats-url), which do not keep named profiles; run it on a server with its own browsers", s.Profile)
}

// profileKey is the engine's lock key of an account's profile.
func profileKey(account, name string) string { return account + "\x00" + name }

// claimProfile gives the account's profile name to run id, or answers busy when another run
// holds it. No profile ("") is always free.
func (e *Engine) claimProfile(account, name, id string) error {
	if name == "" {
		return nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if holder, ok := e.profiles[profileKey(account, name)]; ok && holder != id {
		return &errs.Error{Code: errs.Busy,
			Message: "browser profile " + name + " is in use by run " + holder + "; one run at a time uses a profile"}
	}
	e.profiles[profileKey(account, name)] = id
	return nil
}

// releaseProfile frees the profile when run id holds it.
func (e *Engine) releaseProfile(account, name, id string) {
	if name == "" {
		return
	}
	e.mu.Lock()
	key := profileKey(account, name)
	freed := e.profiles[key] == id
	if freed {
		delete(e.profiles, key)
	}
	e.mu.Unlock()
	if freed {
		e.kick()
	}
}

// ProfileInUse reports the run holding the account's profile, if any.
func (e *Engine) ProfileInUse(account, name string) (string, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	id, ok := e.profiles[profileKey(account, name)]
	return id, ok
}

// nextQueued is the oldest queued run that may start now (its profile free or already its own),
// with its profile claimed; nil when none may.
func (e *Engine) nextQueued() *queuedRun {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, q := range e.queue {
		name := q.run.Script.Profile
		if name == "" {
			return q
		}
		key := profileKey(q.run.Account, name)
		if holder, ok := e.profiles[key]; !ok || holder == q.run.ID() {
			e.profiles[key] = q.run.ID()
			return q
		}
	}
	return nil
}
