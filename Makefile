# rodeo: `make run` starts the server on its embedded defaults; `make test` runs every test
# against the real Debian Chromium. Missing Debian packages are installed when run as root.

GO          ?= go
BIN         ?= bin/rodeo
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
DEB_PACKAGES = chromium xvfb ffmpeg espeak-ng
TEST_TIMEOUT ?= 14m

.PHONY: run build test test-short bench lint docs deps check-docs clean corpus weights

run: deps build
	./$(BIN) serve

build:
	$(GO) build -o $(BIN) .

# deps installs the Debian packages the server and the tests need when they are missing,
# with apt-get when running as root; otherwise it says exactly what to install. Chrome is
# required; xvfb, ffmpeg and espeak-ng (desktop and media nodes, their tests) only warn.
deps:
	@missing=""; \
	if [ -z "$$RODEO_CHROME" ] && [ -z "$$RODEO_CHROME_URL" ] && ! command -v chromium >/dev/null 2>&1 \
	   && ! command -v chromium-browser >/dev/null 2>&1 && ! command -v google-chrome >/dev/null 2>&1; then \
	  missing="chromium"; \
	fi; \
	command -v bwrap >/dev/null 2>&1 || missing="$$missing bubblewrap"; \
	optional=""; \
	command -v Xvfb >/dev/null 2>&1 || optional="$$optional xvfb"; \
	command -v ffmpeg >/dev/null 2>&1 || optional="$$optional ffmpeg"; \
	command -v espeak-ng >/dev/null 2>&1 || optional="$$optional espeak-ng"; \
	if [ -n "$$optional" ] && { [ "$$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; }; then \
	  echo "desktop and media nodes (and their tests) need:$$optional (sudo apt-get install -y$$optional)"; \
	  optional=""; \
	fi; \
	missing="$$missing$$optional"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Debian packages: $$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	  else \
	    echo "rodeo needs Chrome. Install it with: sudo apt-get install -y $$missing"; \
	    echo "(or set RODEO_CHROME to a Chrome executable, or RODEO_CHROME_URL to a DevTools websocket URL)"; \
	    exit 1; \
	  fi; \
	fi

# The longest packages are named first: go test starts them in the order given, so the semantic
# package (about 10 minutes of Chrome) runs beside all the others instead of after most of them.
TEST_PACKAGES = ./semantic/ . ./scripts/nodes/ ./...

test: deps
	$(GO) vet ./...
	$(GO) test -count=1 -p 2 -timeout $(TEST_TIMEOUT) $(TEST_PACKAGES)

# test-short skips the browser tests for a quick loop.
test-short:
	$(GO) test -short -count=1 ./...

bench: deps
	$(GO) test -run '^$$' -bench . -benchtime 20x ./...

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...
	@# production code uses rod's error-returning API only; Must* helpers are for tests
	@bad=$$(git grep -nE '\.Must[A-Z][A-Za-z]*\(' -- '*.go' ':!*_test.go' | grep -vE 'regexp\.MustCompile|template\.Must|\.MustRegister\('); \
	if [ -n "$$bad" ]; then echo "rod Must* helpers in production code:"; echo "$$bad"; exit 1; fi

# docs regenerates the node catalogue from the registry (a test fails when it is stale).
docs:
	$(GO) run . nodes --markdown > docs/nodes.md

clean:
	rm -rf bin

# corpus freezes the grounding corpus's snapshots into testdata/grounding/frozen/, every page
# loaded in Chrome (run it after changing a corpus page, its cases or semantic/snapshot.js;
# TestGroundingFrozenDigests fails until then).
corpus: deps
	GROUNDING_FREEZE=1 $(GO) test -count=1 -run 'TestGroundingFrozenCurrent$$' ./semantic/

# weights fits the semantic engine's calibration (semantic/data/calibration.json) on the frozen
# corpus; TestCalibrationFit fails when the shipped file is stale.
weights:
	GROUNDING_FIT=1 $(GO) test -count=1 -run 'TestCalibrationFit$$' ./semantic/
