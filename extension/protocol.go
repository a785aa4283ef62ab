package extension

import (
	"encoding/json"
	"strings"
)

// message is one JSON text frame of the extension protocol, in either direction. Which fields
// are set depends on Type:
//
//	extension -> server
//	  hello     {key, version, agent}            first frame; anything else first is refused
//	  ping      {}                                every 20 s (keeps the MV3 worker and the socket alive)
//	  pong      {}                                answer to the server's ping
//	  opened    {run, tab, target}                the run's tab exists and chrome.debugger is attached
//	  open_failed {run, message}
//	  result    {id, result | error}              answer to a cdp frame
//	  event     {tab, method, params}             a DevTools event of a run tab
//	  detached  {tab, reason}                     chrome.debugger lost the tab (closed, or the user canceled)
//	  closed    {tab}                             answer to close
//
//	server -> extension
//	  welcome   {account}                         the key was accepted
//	  error     {code, message}                   then the server closes (4401 for a refused key)
//	  ping/pong {}
//	  open      {run, background}                 open a blank tab (background: in an unfocused window), attach
//	  cdp       {id, tab, method, params}         one DevTools command for a run tab
//	  close     {tab, close}                      detach; close the tab too when close is true
type message struct {
	Type    string          `json:"type"`
	ID      int64           `json:"id,omitempty"`
	Tab     int             `json:"tab,omitempty"`
	Run     string          `json:"run,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *protocolError  `json:"error,omitempty"`
	Key     string          `json:"key,omitempty"`
	Version string          `json:"version,omitempty"`
	Agent   string          `json:"agent,omitempty"`
	Account string          `json:"account,omitempty"`
	URL     string          `json:"url,omitempty"`
	Target  string          `json:"target,omitempty"`
	Close   bool            `json:"close,omitempty"`
	// Background asks for a run tab in an unfocused window (open).
	Background bool   `json:"background,omitempty"`
	Reason     string `json:"reason,omitempty"`
	Code       string `json:"code,omitempty"`
	Message    string `json:"message,omitempty"`
}

// protocolError is a DevTools protocol error as the extension reports it. Data may be any JSON.
type protocolError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// dataString renders Data the way rod's cdp.Error holds it (a string).
func (e *protocolError) dataString() string {
	if len(e.Data) == 0 || string(e.Data) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(e.Data, &s) == nil {
		return s
	}
	return strings.TrimSpace(string(e.Data))
}

// WebSocket close codes the server uses.
const (
	closeAuth     = 4401 // the key was refused: the extension waits for new settings
	closeProtocol = 4400 // a malformed or unexpected first frame
)
