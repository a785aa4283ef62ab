// Package nodes is rodeo's node catalogue: one file per kind holding its parameters, its spec
// and its behaviour, each registering itself with scripts.DefaultRegistry from init. Importing
// the package (main does, once) makes every kind available.
package nodes
