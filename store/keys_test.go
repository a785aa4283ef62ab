package store

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/errs"
)

var keyIDPattern = regexp.MustCompile(`^k_[0-9a-f]{12}$`)

// assertInvalidKey checks the exact error Authenticate promises for a rejected secret.
func assertInvalidKey(t *testing.T, err error) {
	t.Helper()
	var e *errs.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T), want *errs.Error", err, err)
	}
	if e.Code != errs.InvalidKey || e.Message != "invalid or revoked API key" {
		t.Errorf("error code %q message %q, want %q %q", e.Code, e.Message, errs.InvalidKey, "invalid or revoked API key")
	}
	if !errors.Is(err, ErrInvalidKey) {
		t.Errorf("error %v is not ErrInvalidKey", err)
	}
}

func TestCreateKey_Authenticate(t *testing.T) {
	db := openTestDB(t, "")
	secret, k, err := db.CreateKey("acme")
	if err != nil {
		t.Fatal(err)
	}

	if !strings.HasPrefix(secret, "rk_") {
		t.Errorf("secret %q lacks rk_", secret)
	}
	if raw, err := base64.RawURLEncoding.DecodeString(secret[3:]); err != nil || len(raw) != 32 {
		t.Errorf("secret %q is not 32 bytes of base64url: %d bytes, %v", secret, len(raw), err)
	}
	if !keyIDPattern.MatchString(k.ID) {
		t.Errorf("key id %q, want k_ + 12 hex digits", k.ID)
	}
	if k.V != 1 || k.Account != "acme" || k.Prefix != secret[:10] || k.Revoked || k.RevokedAt != nil {
		t.Errorf("new key %+v", k)
	}
	if d := time.Since(k.Created); d < 0 || d > time.Minute {
		t.Errorf("created %v, want now", k.Created)
	}

	got, err := db.Authenticate(secret)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != k.ID || got.Account != "acme" || !got.Created.Equal(k.Created) {
		t.Errorf("Authenticate gave %+v, want %+v", got, k)
	}
}

func TestCreateKey_SecretsDiffer(t *testing.T) {
	db := openTestDB(t, "")
	secrets, ids := map[string]bool{}, map[string]bool{}
	for range 50 {
		s, k, err := db.CreateKey("")
		if err != nil {
			t.Fatal(err)
		}
		if secrets[s] || ids[k.ID] {
			t.Fatalf("repeated secret or id: %s %s", s, k.ID)
		}
		secrets[s], ids[k.ID] = true, true
	}
}

func TestCreateKey_Account(t *testing.T) {
	for _, tc := range []struct {
		account, want string // want "" means invalid_config
	}{
		{"", DefaultAccount},
		{"acme", "acme"},
		{"A.b_c-9", "A.b_c-9"},
		{strings.Repeat("a", 64), strings.Repeat("a", 64)},
		{strings.Repeat("a", 65), ""},
		{"has space", ""},
		{"slash/es", ""},
		{"nul\x00", ""},
		{"émoji", ""},
		{"a:b", ""},
	} {
		t.Run(tc.account, func(t *testing.T) {
			db := openTestDB(t, "")
			_, k, err := db.CreateKey(tc.account)
			if tc.want == "" {
				if !errs.Is(err, errs.InvalidConfig) {
					t.Fatalf("error %v, want %s", err, errs.InvalidConfig)
				}
				if n, _ := db.CountKeys(); n != 0 {
					t.Errorf("a rejected key was stored")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if k.Account != tc.want {
				t.Errorf("account %q, want %q", k.Account, tc.want)
			}
		})
	}
}

func TestAuthenticate_Rejects(t *testing.T) {
	db := openTestDB(t, "")
	secret, _, err := db.CreateKey("acme")
	if err != nil {
		t.Fatal(err)
	}
	revokedSecret, revoked, err := db.CreateKey("acme")
	if err != nil {
		t.Fatal(err)
	}
	if err := db.RevokeKey(revoked.ID); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, secret string }{
		{"empty", ""},
		{"unknown", "rk_" + strings.Repeat("A", 43)},
		{"prefix only", secret[:10]},
		{"truncated", secret[:len(secret)-1]},
		{"extended", secret + "x"},
		{"other case", strings.ToUpper(secret)},
		{"padded", " " + secret},
		{"revoked", revokedSecret},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k, err := db.Authenticate(tc.secret)
			assertInvalidKey(t, err)
			if k != (Key{}) {
				t.Errorf("rejected secret returned key %+v", k)
			}
		})
	}
}

func TestRevokeKey_Revokes(t *testing.T) {
	db := openTestDB(t, "")
	db.now = fakeClock(time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC), time.Minute)
	secret, k, err := db.CreateKey("acme")
	if err != nil {
		t.Fatal(err)
	}
	if err := db.RevokeKey(k.ID); err != nil {
		t.Fatal(err)
	}
	_, err = db.Authenticate(secret)
	assertInvalidKey(t, err)

	keys, err := db.ListKeys()
	if err != nil {
		t.Fatal(err)
	}
	first := keys[0]
	if !first.Revoked || first.RevokedAt == nil || !first.RevokedAt.After(first.Created) {
		t.Fatalf("revoked key listed as %+v", first)
	}

	// Revoking again is fine and keeps the first revocation time.
	if err := db.RevokeKey(k.ID); err != nil {
		t.Fatalf("second RevokeKey: %v", err)
	}
	keys, _ = db.ListKeys()
	if !keys[0].RevokedAt.Equal(*first.RevokedAt) {
		t.Errorf("second revocation moved RevokedAt from %v to %v", first.RevokedAt, keys[0].RevokedAt)
	}
}

func TestRevokeKey_NotFound(t *testing.T) {
	db := openTestDB(t, "")
	for _, id := range []string{"", "k_000000000000", "nope"} {
		err := db.RevokeKey(id)
		if !errors.Is(err, ErrNotFound) || errs.Code(err) != errs.NotFound {
			t.Errorf("RevokeKey(%q): %v, want ErrNotFound", id, err)
		}
	}
}

func TestListKeys_OldestFirstWithoutSecrets(t *testing.T) {
	db := openTestDB(t, "")
	// A clock running backwards in real time would break an order by id; the list must follow
	// Created, not the random ids.
	db.now = fakeClock(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC), time.Second)
	var secrets, ids []string
	for _, account := range []string{"b", "a", "c", "a"} {
		s, k, err := db.CreateKey(account)
		if err != nil {
			t.Fatal(err)
		}
		secrets, ids = append(secrets, s), append(ids, k.ID)
	}

	keys, err := db.ListKeys()
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != len(ids) {
		t.Fatalf("%d keys, want %d", len(keys), len(ids))
	}
	for i, k := range keys {
		if k.ID != ids[i] {
			t.Errorf("key %d is %s, want %s", i, k.ID, ids[i])
		}
		if k.Prefix != secrets[i][:10] {
			t.Errorf("key %d prefix %q, want %q", i, k.Prefix, secrets[i][:10])
		}
	}

	out, err := json.Marshal(keys)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range secrets {
		sum := hashSecret(s)
		for _, leak := range []string{s, s[10:], hex.EncodeToString(sum[:]), base64.StdEncoding.EncodeToString(sum[:])} {
			if strings.Contains(string(out), leak) {
				t.Errorf("listed JSON holds secret or hash material of key %d: %s", i, out)
			}
		}
	}
	if strings.Contains(string(out), `"hash"`) {
		t.Errorf("listed JSON has a hash field: %s", out)
	}
	var fields []map[string]any
	if err := json.Unmarshal(out, &fields); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"v", "id", "account", "prefix", "created", "revoked"} {
		if _, ok := fields[0][name]; !ok {
			t.Errorf("listed JSON lacks %q: %s", name, out)
		}
	}
	if _, ok := fields[0]["revoked_at"]; ok {
		t.Errorf("live key shows revoked_at: %s", out)
	}
}

func TestListKeys_Empty(t *testing.T) {
	db := openTestDB(t, "")
	keys, err := db.ListKeys()
	if err != nil || len(keys) != 0 {
		t.Errorf("ListKeys on an empty store: %v, %v", keys, err)
	}
}

func TestCountKeys_CountsRevoked(t *testing.T) {
	db := openTestDB(t, "")
	for want := range 4 {
		if n, err := db.CountKeys(); err != nil || n != want {
			t.Fatalf("CountKeys: %d, %v; want %d", n, err, want)
		}
		_, k, err := db.CreateKey("")
		if err != nil {
			t.Fatal(err)
		}
		if want%2 == 0 {
			if err := db.RevokeKey(k.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestImportKey_Idempotent(t *testing.T) {
	db := openTestDB(t, "")
	const secret = "my-install-key-0123456789"
	k1, err := db.ImportKey(secret, "")
	if err != nil {
		t.Fatal(err)
	}
	if k1.Account != DefaultAccount || k1.Prefix != secret[:10] || !keyIDPattern.MatchString(k1.ID) {
		t.Errorf("imported key %+v", k1)
	}
	for _, account := range []string{"", "default", "other"} {
		k2, err := db.ImportKey(secret, account)
		if err != nil {
			t.Fatal(err)
		}
		if k2.ID != k1.ID || !k2.Created.Equal(k1.Created) || k2.Account != k1.Account || k2.Prefix != k1.Prefix {
			t.Errorf("re-import with account %q gave %+v, want %+v", account, k2, k1)
		}
	}
	if n, _ := db.CountKeys(); n != 1 {
		t.Errorf("%d keys after importing one secret thrice, want 1", n)
	}
	if got, err := db.Authenticate(secret); err != nil || got.ID != k1.ID {
		t.Errorf("Authenticate imported key: %+v, %v", got, err)
	}
}

func TestImportKey_StaysRevoked(t *testing.T) {
	db := openTestDB(t, "")
	const secret = "rk_imported-and-later-revoked"
	k, err := db.ImportKey(secret, "acme")
	if err != nil {
		t.Fatal(err)
	}
	if err := db.RevokeKey(k.ID); err != nil {
		t.Fatal(err)
	}
	again, err := db.ImportKey(secret, "acme")
	if err != nil {
		t.Fatal(err)
	}
	if again.ID != k.ID || !again.Revoked || again.RevokedAt == nil {
		t.Errorf("re-import of a revoked key gave %+v, want it revoked", again)
	}
	_, err = db.Authenticate(secret)
	assertInvalidKey(t, err)
}

func TestImportKey_CreatedKey(t *testing.T) {
	db := openTestDB(t, "")
	secret, k, err := db.CreateKey("acme")
	if err != nil {
		t.Fatal(err)
	}
	got, err := db.ImportKey(secret, "")
	if err != nil || got.ID != k.ID || got.Account != "acme" {
		t.Errorf("importing a created key: %+v, %v; want %s of acme", got, err, k.ID)
	}
}

func TestImportKey_Rejects(t *testing.T) {
	for _, tc := range []struct{ name, secret, account string }{
		{"empty", "", ""},
		{"15 chars", strings.Repeat("x", 15), ""},
		{"trailing newline", "abcdefghijklmnop\n", ""},
		{"inner space", "abcdefgh ijklmnop", ""},
		{"non-ASCII", "abcdefghijklmnopé", ""},
		{"bad account", "abcdefghijklmnop", "no spaces"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := openTestDB(t, "")
			_, err := db.ImportKey(tc.secret, tc.account)
			if !errs.Is(err, errs.InvalidConfig) {
				t.Fatalf("error %v, want %s", err, errs.InvalidConfig)
			}
			if strings.TrimSpace(tc.secret) != "" && strings.Contains(err.Error(), tc.secret) {
				t.Errorf("error %q repeats the secret", err)
			}
			if n, _ := db.CountKeys(); n != 0 {
				t.Errorf("a rejected key was stored")
			}
		})
	}
	t.Run("16 chars", func(t *testing.T) {
		db := openTestDB(t, "")
		if _, err := db.ImportKey(strings.Repeat("x", 16), ""); err != nil {
			t.Errorf("16-character secret refused: %v", err)
		}
	})
}

// TestKeys_SecretNotInFile looks for the secrets in the raw bytes of the database file.
func TestKeys_SecretNotInFile(t *testing.T) {
	dir := t.TempDir()
	db := openTestDB(t, dir)
	var secrets []string
	for range 5 {
		s, _, err := db.CreateKey("acme")
		if err != nil {
			t.Fatal(err)
		}
		secrets = append(secrets, s)
	}
	const imported = "imported-secret-0123456789abcdef"
	if _, err := db.ImportKey(imported, "acme"); err != nil {
		t.Fatal(err)
	}
	secrets = append(secrets, imported)
	if err := db.RevokeKey(mustListKeys(t, db)[0].ID); err != nil {
		t.Fatal(err)
	}
	checkDB(t, db)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	raw, err := os.ReadFile(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range secrets {
		// The prefix is stored for display; the remainder must appear nowhere, in any case.
		for _, part := range []string{s, s[10:], strings.ToLower(s[10:]), strings.ToUpper(s[10:])} {
			if bytes.Contains(raw, []byte(part)) {
				t.Errorf("database file contains secret material %q", part)
			}
		}
		sum := hashSecret(s)
		if !bytes.Contains(raw, sum[:]) {
			t.Errorf("database file lacks the hash of a secret; is the test reading the right file?")
		}
	}
}

func mustListKeys(t *testing.T, db *DB) []Key {
	t.Helper()
	keys, err := db.ListKeys()
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

func BenchmarkAuthenticate(b *testing.B) {
	db := openTestDB(b, "")
	db.bolt.NoSync = true // setup speed only; Authenticate does not write
	var secret string
	for i := range 1000 {
		s, _, err := db.CreateKey("acme")
		if err != nil {
			b.Fatal(err)
		}
		if i == 500 {
			secret = s
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := db.Authenticate(secret); err != nil {
			b.Fatal(err)
		}
	}
}
