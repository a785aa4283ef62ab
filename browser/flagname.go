package browser

import "github.com/go-rod/rod/lib/launcher/flags"

func flagName(s string) flags.Flag { return flags.Flag(s) }
