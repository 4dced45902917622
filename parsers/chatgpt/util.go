package chatgpt

import (
	"encoding/json"
	"errors"
)

// ignoreType drops type errors: json fills in what it can around them, and
// a misshapen side field is no reason to lose a message.
func ignoreType(err error) error {
	if _, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
		return nil
	}
	return err
}
