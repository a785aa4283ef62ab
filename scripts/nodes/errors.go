package nodes

import (
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
)

func errInvalid(format string, args ...any) error {
	return errs.E(errs.InvalidConfig, format, args...)
}

// validateByBuilding makes a spec's Build its compile-time check when no param is templated: a
// node whose literal params can't build is reported as a 400 with the request instead of failing
// later at run time. Only for kinds whose Build is pure (no I/O).
func validateByBuilding(build func(*scripts.Params) (scripts.Node, error)) func(*scripts.Params) error {
	return func(p *scripts.Params) error {
		if p.Templated() {
			return nil
		}
		_, err := build(p)
		return err
	}
}
