package semantic

import "strings"

// A user in London asks for "the colour picker" on a page that says "Color", or "my favourite
// shops" under "Favorites"; a user in Chicago asks for "the cancelled orders" where a British
// shop says "Cancelled". The stemmer's rules leave the two spellings apart ("colour" and
// "color"), so every British form of a word in the lists below is stemmed as its American
// form is: both sides of each comparison meet, as plurals and tenses already do. The forms
// are generated once, into stemAs, so a token still costs one lookup.

// spellingPairs are American and British spellings of one word, in their base forms: the
// inflections (spellingSuffixes) are made from both.
var spellingPairs = [][2]string{
	// -or / -our
	{"color", "colour"}, {"favor", "favour"}, {"favorite", "favourite"}, {"behavior", "behaviour"},
	{"flavor", "flavour"}, {"honor", "honour"}, {"labor", "labour"}, {"neighbor", "neighbour"},
	{"neighborhood", "neighbourhood"}, {"harbor", "harbour"}, {"humor", "humour"}, {"rumor", "rumour"},
	{"savor", "savour"}, {"savory", "savoury"}, {"vapor", "vapour"}, {"armor", "armour"},
	{"odor", "odour"}, {"endeavor", "endeavour"}, {"parlor", "parlour"}, {"tumor", "tumour"},
	{"colorful", "colourful"}, {"favorable", "favourable"}, {"honorable", "honourable"},
	// -er / -re
	{"center", "centre"}, {"theater", "theatre"}, {"meter", "metre"}, {"kilometer", "kilometre"},
	{"centimeter", "centimetre"}, {"millimeter", "millimetre"}, {"liter", "litre"}, {"fiber", "fibre"},
	{"caliber", "calibre"}, {"somber", "sombre"}, {"luster", "lustre"}, {"saber", "sabre"},
	// -og / -ogue
	{"catalog", "catalogue"}, {"dialog", "dialogue"}, {"analog", "analogue"},
	// -se / -ce
	{"license", "licence"}, {"defense", "defence"}, {"offense", "offence"}, {"pretense", "pretence"},
	// -yze / -yse
	{"analyze", "analyse"}, {"paralyze", "paralyse"}, {"catalyze", "catalyse"},
	// one l / two
	{"canceled", "cancelled"}, {"canceling", "cancelling"}, {"traveled", "travelled"},
	{"traveling", "travelling"}, {"traveler", "traveller"}, {"labeled", "labelled"},
	{"labeling", "labelling"}, {"modeled", "modelled"}, {"modeling", "modelling"},
	{"leveled", "levelled"}, {"fueled", "fuelled"}, {"signaled", "signalled"},
	{"totaled", "totalled"}, {"counselor", "counsellor"}, {"counseling", "counselling"},
	{"channeled", "channelled"}, {"dialed", "dialled"}, {"dialing", "dialling"},
	{"jeweler", "jeweller"}, {"jewelry", "jewellery"}, {"enroll", "enrol"},
	{"enrollment", "enrolment"}, {"fulfill", "fulfil"}, {"fulfillment", "fulfilment"},
	{"installment", "instalment"}, {"skillful", "skilful"}, {"marvelous", "marvellous"},
	// others
	{"gray", "grey"}, {"tire", "tyre"}, {"aluminum", "aluminium"}, {"program", "programme"},
	{"check", "cheque"}, {"pajamas", "pyjamas"}, {"plow", "plough"}, {"mold", "mould"},
	{"curb", "kerb"}, {"donut", "doughnut"}, {"aging", "ageing"}, {"judgment", "judgement"},
	{"acknowledgment", "acknowledgement"}, {"yogurt", "yoghurt"}, {"artifact", "artefact"},
	{"airplane", "aeroplane"}, {"practice", "practise"}, {"mustache", "moustache"},
}

// izeVerbs are verbs whose British spelling may end in -ise (organise, customise): each one's
// -ise, -ised, -ising, -iser and -isation forms are stemmed as the -ize ones. (Verbs spelled
// -ise on both sides, such as advertise, exercise or supervise, are not here.)
var izeVerbs = strings.Fields(`
	organize reorganize customize personalize authorize recognize prioritize summarize finalize
	optimize categorize apologize minimize maximize realize specialize utilize standardize
	visualize synchronize initialize localize memorize normalize emphasize criticize characterize
	familiarize itemize monetize sanitize stabilize sterilize symbolize sympathize capitalize
	centralize digitize generalize harmonize legalize mobilize modernize neutralize penalize
	randomize rationalize scrutinize socialize subsidize theorize vaporize colonize energize
	fertilize jeopardize agonize computerize dramatize economize equalize fantasize formalize
	hospitalize immunize internalize legitimize marginalize materialize mechanize monopolize
	nationalize naturalize patronize pasteurize polarize privatize publicize revolutionize
	romanticize sensitize serialize stigmatize synthesize systematize trivialize unionize
	urbanize vandalize victimize winterize anonymize virtualize tokenize containerize
	harmonize amortize authorize civilize crystallize deodorize hypothesize idolize ionize
	italicize magnetize metabolize miniaturize motorize mesmerize optimize ostracize oxidize
	philosophize proselytize rhapsodize satirize scandalize sermonize terrorize tranquilize
	tyrannize vocalize westernize alphabetize apologize globalize`)

// spellingSuffixes inflect both spellings of a pair alike; a form no one writes is harmless.
var spellingSuffixes = []string{"", "s", "es", "ed", "ing", "er", "ers", "ite", "ites", "ful", "able", "ation", "ations"}

// britishStems maps each British form to its American form's stem.
func britishStems() map[string]string {
	m := map[string]string{}
	add := func(us, gb string) {
		for _, suf := range spellingSuffixes {
			u, g := inflect(us, suf), inflect(gb, suf)
			if u == g {
				continue
			}
			// The American form's stem, by the same rules as every other word (stemAs is
			// not built yet: these are its input).
			if _, known := m[g]; !known {
				m[g] = stemRules(u)
			}
		}
	}
	for _, p := range spellingPairs {
		add(p[0], p[1])
	}
	for _, v := range izeVerbs {
		root := strings.TrimSuffix(v, "ize")
		for _, pair := range [][2]string{{"ize", "ise"}, {"ization", "isation"}, {"izations", "isations"}} {
			add(root+pair[0], root+pair[1])
		}
	}
	return m
}

// inflect adds a suffix to a base form as English spelling does: a final e goes before a
// vowel ("organise" + "ed" = "organised").
func inflect(base, suf string) string {
	if suf != "" && strings.HasSuffix(base, "e") && strings.ContainsRune("aeiou", rune(suf[0])) {
		return base[:len(base)-1] + suf
	}
	return base + suf
}
