package store

import (
	"errors"
	"testing"

	bolt "go.etcd.io/bbolt"
)

func TestResolutions_PutGetDelete(t *testing.T) {
	db := openTestDB(t, "")
	if got, err := db.GetResolution("acct_1", "k"); got != nil || err != nil {
		t.Fatalf("missing entry: %q %v", got, err)
	}
	if err := db.PutResolution("acct_1", "k", []byte(`{"v":1,"selector":"#a"}`)); err != nil {
		t.Fatal(err)
	}
	if err := db.PutResolution("acct_1", "k", []byte(`{"v":1,"selector":"#b"}`)); err != nil {
		t.Fatal(err)
	}
	got, err := db.GetResolution("acct_1", "k")
	if err != nil || string(got) != `{"v":1,"selector":"#b"}` {
		t.Fatalf("got %q %v", got, err)
	}
	if got, _ := db.GetResolution("acct_2", "k"); got != nil {
		t.Errorf("another account sees %q", got)
	}
	if err := db.PutResolution("acct_1", "bad", []byte(`not json`)); err == nil {
		t.Error("a non-JSON entry was stored")
	}
	if err := db.DeleteResolution("acct_1", "k"); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.GetResolution("acct_1", "k"); got != nil {
		t.Errorf("deleted entry still there: %q", got)
	}
	if err := db.DeleteResolution("nobody", "k"); err != nil {
		t.Errorf("deleting in an unknown account: %v", err)
	}
}

func TestResolutions_NewerFormatIsRefused(t *testing.T) {
	db := openTestDB(t, "")
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		b, err := tx.Bucket(bucketResolutions).CreateBucketIfNotExists([]byte("a"))
		if err != nil {
			return err
		}
		return b.Put([]byte("k"), []byte(`{"v":99,"entry":{}}`))
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.GetResolution("a", "k"); !errors.Is(err, ErrUnsupportedVersion) {
		t.Errorf("got %v, want ErrUnsupportedVersion", err)
	}
}

func TestResolutions_SurviveReopen(t *testing.T) {
	dir := t.TempDir()
	db, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.PutResolution("a", "k", []byte(`{"x":1}`)); err != nil {
		t.Fatal(err)
	}
	_ = db.Close()
	db = openTestDB(t, dir)
	if got, _ := db.GetResolution("a", "k"); string(got) != `{"x":1}` {
		t.Errorf("after reopen: %q", got)
	}
}
