package main

import "encoding/json"

func jsonRaw(v any) ([]json.RawMessage, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return []json.RawMessage{b}, nil
}
