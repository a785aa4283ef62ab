package scripts

import (
	"encoding/json"
	"errors"
)

func asTypeErr(err error, target **json.UnmarshalTypeError) bool { return errors.As(err, target) }
