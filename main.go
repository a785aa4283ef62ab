// Command rodeo is a self-hosted, browser-first automation server: `rodeo serve` runs the HTTP
// API, `rodeo run` one agent without a server, `rodeo keys` and `rodeo nodes` the rest (API.md).
// main only handles signals and exit codes; App does the work.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	_ "github.com/rodeo-run/rodeo/scripts/nodes" // registers every node kind
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	app := &App{Stdout: os.Stdout, Stderr: os.Stderr, Stdin: os.Stdin, Getenv: os.Getenv}
	code, err := app.Main(ctx, os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "rodeo:", err)
	}
	os.Exit(code)
}
