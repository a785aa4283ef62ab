package server

import (
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// operation documents one route for GET /openapi.json. The list is checked against the routes
// Fiber actually serves (openapi_test.go), so the document can't drift from the server.
type operation struct {
	method, path, summary string
	// auth: the route needs an API key (body `key` or Bearer).
	auth bool
	// body names the request body schema ("" for none).
	body string
	// status and schema of the success answer ("" schema for a non-JSON or empty answer).
	status int
	schema string
	// errors are the error statuses the route answers besides 500.
	errors []int
}

var operations = []operation{
	{"POST", "/agents", "Run an agent: waits for the run document (?wait=false answers 202 at once)", true, "AgentRequest", 200, "RunDoc", []int{400, 401, 413, 503}},
	{"GET", "/runs", "The account's runs, newest first (?limit, ?before; filters ?status, ?script, ?adhoc, ?source)", true, "", 200, "RunList", []int{401}},
	{"GET", "/runs/{id}", "A run document (live while it runs)", true, "", 200, "RunDoc", []int{401, 404}},
	{"GET", "/runs/{id}/events", "Server-Sent Events: status, one step event per finished step, print/notification messages, then done", true, "", 200, "", []int{401, 404}},
	{"POST", "/runs/{id}/cancel", "Cancel a run (running or queued) and answer its document", true, "", 200, "RunDoc", []int{401, 404}},
	{"GET", "/runs/{id}/artifacts", "Files a run kept (screenshots)", true, "", 200, "", []int{401, 404}},
	{"GET", "/runs/{id}/artifacts/{name}", "One kept file", true, "", 200, "", []int{401, 404}},
	{"PUT", "/scripts/{name}", "Save a script (a new version each time), validated like /agents", true, "ScriptRequest", 200, "", []int{400, 401, 413}},
	{"GET", "/scripts", "The account's saved scripts", true, "", 200, "", []int{401}},
	{"GET", "/scripts/{name}", "A saved script (latest, or ?version=N)", true, "", 200, "", []int{401, 404}},
	{"DELETE", "/scripts/{name}", "Delete a saved script with all its versions", true, "", 200, "", []int{401, 404}},
	{"POST", "/triggers/cloud", "Run a saved script in the server's browsers (?wait=true waits)", true, "TriggerRequest", 202, "Accepted", []int{400, 401, 404, 503}},
	{"POST", "/triggers/extension", "Run a saved script in the account's companion extension (queued until one connects)", true, "TriggerRequest", 202, "Accepted", []int{400, 401, 404, 503}},
	{"GET", "/extension/connect", "WebSocket of the companion extension (first frame: hello with the key)", false, "", 101, "", []int{400, 401}},
	{"GET", "/sheets", "The account's sheets", true, "", 200, "", []int{401}},
	{"GET", "/sheets/{id}", "A sheet as JSON; /sheets/{id}.csv and /sheets/{id}.xlsx export it", true, "", 200, "", []int{401, 404}},
	{"GET", "/outbox", "Mail kept because no SMTP server is configured", true, "", 200, "", []int{401}},
	{"GET", "/outbox/{id}", "One outbox message", true, "", 200, "", []int{401, 404}},
	{"GET", "/nodes", "The node catalogue: every kind with its parameters", false, "", 200, "", nil},
	{"GET", "/healthz", "Health: status, version, active runs, browser pool", false, "", 200, "", nil},
	{"GET", "/metrics", "Prometheus metrics (text format)", false, "", 200, "", nil},
	{"GET", "/openapi.json", "This document", false, "", 200, "", nil},
	{"GET", "/", "The studio: the web page (HTML) to watch runs and build scripts (docs/studio.md)", false, "", 200, "", nil},
	{"GET", "/studio/{file}", "The studio's embedded scripts and styles", false, "", 200, "", []int{404}},
}

var errorCodes = map[int]string{
	400: "invalid_json or invalid_config (details list every problem with its node and field)",
	401: "invalid_key: missing, unknown or revoked key",
	404: "not_found (also another account's resource)",
	413: "too_large: body over the limit",
	503: "busy: no browser free and the queue is full (Retry-After)",
	500: "internal: carries a request_id",
}

// openAPI is GET /openapi.json: OpenAPI 3.1 of the routes above, with the node kinds of the
// registry as the `type` enum of a node.
func (s *Server) openAPI(c *fiber.Ctx) error {
	s.openAPIOnce.Do(func() { s.openAPIDoc = s.buildOpenAPI() })
	return c.JSON(s.openAPIDoc)
}

func (s *Server) buildOpenAPI() fiber.Map {
	ref := func(name string) fiber.Map { return fiber.Map{"$ref": "#/components/schemas/" + name} }
	paths := fiber.Map{}
	for _, op := range operations {
		item, _ := paths[op.path].(fiber.Map)
		if item == nil {
			item = fiber.Map{}
			paths[op.path] = item
		}
		responses := fiber.Map{}
		ok := fiber.Map{"description": "success"}
		if op.schema != "" {
			ok["content"] = fiber.Map{"application/json": fiber.Map{"schema": ref(op.schema)}}
		}
		responses[itoa(op.status)] = ok
		for _, code := range append(op.errors, 500) {
			responses[itoa(code)] = fiber.Map{"description": errorCodes[code],
				"content": fiber.Map{"application/json": fiber.Map{"schema": ref("Error")}}}
		}
		o := fiber.Map{"summary": op.summary, "responses": responses}
		if op.auth {
			o["security"] = []fiber.Map{{"bearer": []string{}}, {}}
		}
		if op.body != "" {
			o["requestBody"] = fiber.Map{"required": true, "content": fiber.Map{"application/json": fiber.Map{"schema": ref(op.body)}}}
		}
		var params []fiber.Map
		for _, seg := range strings.Split(op.path, "/") {
			if strings.HasPrefix(seg, "{") {
				params = append(params, fiber.Map{"name": strings.Trim(seg, "{}"), "in": "path", "required": true, "schema": fiber.Map{"type": "string"}})
			}
		}
		if params != nil {
			o["parameters"] = params
		}
		item[strings.ToLower(op.method)] = o
	}
	str := fiber.Map{"type": "string"}
	node := fiber.Map{"type": "object", "required": []string{"type"}, "additionalProperties": true,
		"properties": fiber.Map{"type": fiber.Map{"type": "string", "enum": s.cfg.Registry.Kinds(), "description": "the node kind; see GET /nodes for its parameters"}}}
	return fiber.Map{
		"openapi": "3.1.0",
		"info":    fiber.Map{"title": "rodeo", "version": s.cfg.Version, "description": "A self-hosted, browser-first automation server. Keys travel as the body's `key` or as Authorization: Bearer."},
		"paths":   paths,
		"components": fiber.Map{
			"securitySchemes": fiber.Map{"bearer": fiber.Map{"type": "http", "scheme": "bearer"}},
			"schemas": fiber.Map{
				"Node": node,
				"AgentRequest": fiber.Map{"type": "object", "required": []string{"goal", "json_output"}, "properties": fiber.Map{
					"key": str, "goal": str, "json_output": fiber.Map{"type": "array", "items": ref("Node")},
					"data": fiber.Map{"type": "object", "description": "initial variables"}, "timeout": fiber.Map{"type": "number", "description": "seconds"},
					"record": fiber.Map{"type": "boolean", "description": "keep a screenshot after each browser step as a run artifact"}}},
				"ScriptRequest": fiber.Map{"type": "object", "required": []string{"goal", "json_output"}, "properties": fiber.Map{
					"key": str, "goal": str, "json_output": fiber.Map{"type": "array", "items": ref("Node")}}},
				"TriggerRequest": fiber.Map{"type": "object", "required": []string{"name"}, "properties": fiber.Map{
					"key": str, "name": str, "start": fiber.Map{"type": "string", "description": "a URL opened first; blank runs in the background"},
					"data": fiber.Map{"type": "string", "description": "becomes the variable data; never code"}}},
				"Accepted":  fiber.Map{"type": "object", "properties": fiber.Map{"run_id": str, "status": str, "status_url": str}},
				"ErrorBody": fiber.Map{"type": []string{"object", "null"}, "properties": fiber.Map{"code": str, "message": str}},
				"Check":     fiber.Map{"type": "object", "properties": fiber.Map{"name": str, "passed": fiber.Map{"type": "boolean"}, "detail": str}},
				"Step": fiber.Map{"type": "object", "properties": fiber.Map{
					"index": fiber.Map{"type": "integer"}, "path": str, "type": str,
					"status":       fiber.Map{"type": "string", "enum": []string{"ok", "failed", "skipped"}},
					"duration_ms":  fiber.Map{"type": "integer"},
					"verification": fiber.Map{"type": []string{"object", "null"}, "properties": fiber.Map{"passed": fiber.Map{"type": "boolean"}, "attempts": fiber.Map{"type": "integer"}, "checks": fiber.Map{"type": "array", "items": ref("Check")}}},
					"detail":       fiber.Map{"type": "object"}, "error": ref("ErrorBody")}},
				"RunDoc": fiber.Map{"type": "object", "properties": fiber.Map{
					"run_id": str, "goal": str, "source": str,
					"status": fiber.Map{"type": "string", "enum": []string{"queued", "running", "succeeded", "failed", "canceled", "timed_out", "expired"}},
					"data":   fiber.Map{"type": "object"}, "steps": fiber.Map{"type": "array", "items": ref("Step")}, "error": ref("ErrorBody"),
					"created": str, "started": str, "finished": str, "duration_ms": fiber.Map{"type": "integer"}}},
				"RunList": fiber.Map{"type": "object", "properties": fiber.Map{"runs": fiber.Map{"type": "array"}, "next": str}},
				"Error": fiber.Map{"type": "object", "properties": fiber.Map{"error": fiber.Map{"type": "object", "properties": fiber.Map{
					"code": str, "message": str, "request_id": str,
					"details": fiber.Map{"type": "array", "items": fiber.Map{"type": "object", "properties": fiber.Map{"node": fiber.Map{"type": "integer"}, "field": str, "problem": str}}}}}}},
			},
		},
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
