package semantic

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Calibration turns how a heuristic resolution was reached into one confidence that means
// what it says: the probability, fitted on the grounding corpus, that the element is the one
// described. Each step of the resolver (a plain ranking, an ordinal, a tie broken by the
// description's words...) has its own hand-set confidence; those numbers disagree with each
// other and with how often each step is right, so a node refused right answers ("too weak")
// and acted on wrong ones. The model is a logistic regression over the features below; its
// weights are data (data/calibration.json), written by `make weights` from the frozen corpus
// with folds grouped by page, and read once at start.

//go:embed data/calibration.json
var calibrationJSON []byte

// calibrationFile is data/calibration.json.
type calibrationFile struct {
	V        int                `json:"v"`
	Command  string             `json:"command"`
	Weights  map[string]float64 `json:"weights"`
	Accept   float64            `json:"accept"`
	Measured map[string]any     `json:"measured,omitempty"`
}

// calibrationVersion is the format of data/calibration.json this code reads.
const calibrationVersion = 1

// calibrationFeatures names the features in the order featureVector writes them.
var calibrationFeatures = func() []string {
	names := []string{"bias", "step_confidence", "top_score", "margin", "lead", "eligible_log",
		"unexplained", "by_label", "intent_click", "intent_type", "intent_read", "quoted",
		"question", "ordinal", "text_score", "near_log", "fit", "chrome", "words_log",
		"whole_name", "whole_others_log", "match_given"}
	for _, s := range decidingSteps {
		names = append(names, "step_"+s)
	}
	return names
}()

// answerFacts are what calibration reads of the answer against the rest of the page: whether
// it is named exactly what the description says, how many other elements are too, and whether
// the query chose among equals itself (Query.Match).
type answerFacts struct {
	whole       bool
	wholeOthers int
	matchGiven  bool
}

// factsOf works out answerFacts for element id of s. An element named exactly what was asked
// ("the volume" and a slider named Volume, "Card A" and a card that says it) is nearly always
// the one meant when it is the only one; when several are, what decides is the choice among
// them, which the query may have made itself ("the Item link", match 2).
func factsOf(s *Snapshot, p *Parsed, q Query, id int) answerFacts {
	af := answerFacts{matchGiven: q.Match != ""}
	ps := prepare(s)
	if id < 0 || id >= len(ps) || !namedWhole(ps, p, id) {
		return af
	}
	af.whole = true
	for i := range ps {
		if i != id && s.Elements[i].Visible && namedWhole(ps, p, i) && !related(s, id, i) {
			af.wholeOthers++
		}
	}
	return af
}

// namedWhole reports whether element i's own name, text or other field is the whole of the
// description p parses (without its article, and with or without its role word or verb).
func namedWhole(ps []prepared, p *Parsed, i int) bool {
	if p.Whole == "" {
		return false
	}
	for _, f := range containedFields {
		v := strings.TrimRight(ps[i].norm[f], "?!.: ")
		if v != "" && (v == p.Whole || v == p.WholeNoRole || p.Said != "" && v == p.Said) {
			return true
		}
	}
	return false
}

// featureVector is what calibration reads of a heuristic resolution of the description p
// parses, asked with intent.
func featureVector(e *Element, sg signal, unexpl float64, byLabel bool, intent Intent, p *Parsed, desc string, af answerFacts) []float64 {
	f := make([]float64, 0, len(calibrationFeatures))
	f = append(f, 1, sg.stepConf, base(sg.top), clamp01((sg.top-sg.second)/0.2),
		math.Max(-1, math.Min(2, sg.top-sg.second)), math.Log1p(float64(sg.eligible)), unexpl,
		b2f(byLabel), b2f(intent == IntentClick), b2f(intent == IntentType),
		b2f(intent == IntentRead), b2f(len(p.Quoted) > 0),
		b2f(questionRe.MatchString(strings.ToLower(strings.TrimSpace(desc)))), b2f(p.Ordinal != 0),
		math.Min(sg.text, 2), math.Log1p(float64(sg.near)), b2f(fitFor(e, intent)), b2f(chrome(e)),
		math.Log1p(float64(len(p.Words)+len(p.Texts))),
		b2f(af.whole), math.Log1p(float64(af.wholeOthers)), b2f(af.matchGiven))
	for _, s := range decidingSteps {
		f = append(f, b2f(sg.step == s))
	}
	return f
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// calibrator is the loaded model: weights in calibrationFeatures' order.
type calibrator struct {
	w      []float64
	accept float64
}

// loadCalibration reads and checks a calibration file: every feature the code writes has a
// weight and the file names no other, so a file out of step with the code fails at start.
func loadCalibration(raw []byte) (*calibrator, error) {
	var f calibrationFile
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, fmt.Errorf("calibration: %w", err)
	}
	if f.V != calibrationVersion {
		return nil, fmt.Errorf("calibration: format v%d, want v%d", f.V, calibrationVersion)
	}
	if f.Accept <= 0 || f.Accept >= 1 {
		return nil, fmt.Errorf("calibration: accept %v is not between 0 and 1", f.Accept)
	}
	c := &calibrator{accept: f.Accept}
	for _, name := range calibrationFeatures {
		w, ok := f.Weights[name]
		if !ok {
			return nil, fmt.Errorf("calibration: no weight for feature %q (make weights)", name)
		}
		c.w = append(c.w, w)
	}
	if len(f.Weights) != len(calibrationFeatures) {
		for name := range f.Weights {
			if !slices.Contains(calibrationFeatures, name) {
				return nil, fmt.Errorf("calibration: weight for unknown feature %q", name)
			}
		}
	}
	return c, nil
}

// probability is the model's confidence for a feature vector.
func (c *calibrator) probability(f []float64) float64 {
	z := 0.0
	for i, x := range f {
		z += c.w[i] * x
	}
	return 1 / (1 + math.Exp(-z))
}

// calibration is the shipped model, read at start; a broken data file stops the program.
var calibration = func() *calibrator {
	c, err := loadCalibration(calibrationJSON)
	if err != nil {
		panic(err)
	}
	return c
}()

// MinConfidence is the confidence below which a heuristic answer is too uncertain to act on:
// the calibrated threshold at which few accepted answers are wrong (data/calibration.json).
func MinConfidence() float64 { return calibration.accept }

// maxConfidence caps a heuristic answer's confidence: the ranker is never certain.
const maxConfidence = 0.99

// calibrate sets res's confidence to the calibrated probability that it is right, discounted
// when a word of the description was read as a typo (the corpus has too few of those to fit).
func calibrate(s *Snapshot, q Query, p *Parsed, res *Resolution) {
	res.signal.unexplained, res.signal.measured = unexplained(s, p, res.Element.ID), true
	f := featureVector(&res.Element, res.signal, res.signal.unexplained, res.byLabel, intentOf(q, p), p, q.Description, factsOf(s, p, q, res.Element.ID))
	c := math.Min(maxConfidence, calibration.probability(f))
	if res.signal.typo {
		c *= typoDiscount
	}
	res.Confidence = math.Round(c*100) / 100
}
