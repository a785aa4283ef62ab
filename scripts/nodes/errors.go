package nodes

import "github.com/rodeo-run/rodeo/errs"

func errInvalid(format string, args ...any) error {
	return errs.E(errs.InvalidConfig, format, args...)
}
