package semantic

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestGroundingScrape runs the corpus's scrape cases (a value, a list or a table by
// description) the way the semanticScrape node does, on the live corpus pages, and wants each
// exactly. It loads only the pages that have scrape cases.
func TestGroundingScrape(t *testing.T) {
	pages := loadGrounding(t, func(_ string, f *groundingFile) bool { return len(f.Scrape) > 0 })
	ctx := context.Background()
	n, ok := 0, 0
	for _, gp := range pages {
		for _, c := range gp.file.Scrape {
			n++
			var got any
			var err error
			switch ShapeOf(c.Description) {
			case ShapeList:
				got, err = List(gp.snap, c.Description)
			case ShapeTable:
				got, err = Table(ctx, gp.page, gp.snap, c.Description)
			default:
				var res Resolution
				if res, err = Resolve(gp.snap, Query{Description: c.Description, Intent: IntentRead}); err == nil {
					got = strings.TrimSpace(firstOf(res.Element.Text, res.Element.Name, res.Element.Value))
				}
			}
			if err != nil {
				t.Errorf("%s: %q: %v", gp.name, c.Description, err)
				continue
			}
			// Compare as JSON values: the case's want was decoded from JSON.
			b, _ := json.Marshal(got)
			var norm any
			_ = json.Unmarshal(b, &norm)
			if !reflect.DeepEqual(norm, c.Want) {
				t.Errorf("%s: %q = %s, want %v", gp.name, c.Description, b, c.Want)
				continue
			}
			ok++
		}
	}
	t.Logf("scrape by description: %d/%d exact", ok, n)
	if n == 0 {
		t.Error("the corpus has no scrape cases")
	}
}
