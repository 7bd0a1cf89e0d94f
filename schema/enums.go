package schema

import "slices"

// Source says how an episode came about (seed §3.3). Headline metrics use
// natural episodes only; perturbed episodes are a stress stratum.
const (
	SourceNatural   = "natural"
	SourceWeakened  = "weakened"
	SourcePerturbed = "perturbed"
)

// Sources lists the valid episode sources.
var Sources = []string{SourceNatural, SourceWeakened, SourcePerturbed}

// Judge verdict values (seed §4.4). parse_error marks a judge reply that
// could not be read; it is dropped when runs are combined.
const (
	VerdictSuccess    = "success"
	VerdictFailure    = "failure"
	VerdictUncertain  = "uncertain"
	VerdictParseError = "parse_error"
)

// Verdicts lists the valid verdict values.
var Verdicts = []string{VerdictSuccess, VerdictFailure, VerdictUncertain, VerdictParseError}

// Evidence conditions (seed §3.5).
const (
	ConditionFinal = "E1-final"
	ConditionLastK = "E2-lastk"
	ConditionFull  = "E3-full"
	ConditionClaim = "E2+claim"
)

// Failure categories (seed §3.3). Every GT-failed episode belongs to exactly one.
const (
	CatAbort       = "F-ABORT"
	CatWrongApp    = "F-WRONGAPP"
	CatPartial     = "F-PARTIAL"
	CatUncommitted = "F-UNCOMMITTED"
	CatWrongTarget = "F-WRONGTARGET"
	CatSideEffect  = "F-SIDEEFFECT"
	CatClaim       = "F-CLAIM"
)

// Categories lists the seven failure categories in the seed's order.
var Categories = []string{CatAbort, CatWrongApp, CatPartial, CatUncommitted, CatWrongTarget, CatSideEffect, CatClaim}

// Hardness strata of failure categories (DESIGN.md "Failure categories").
const (
	HardnessHard    = "hard"
	HardnessObvious = "obvious"
	HardnessClaim   = "claim"
)

// Hardness returns the default stratum of a category: hard negatives look
// like success on screen, obvious failures do not, F-CLAIM stands alone.
// It returns "" for an empty or unknown category.
func Hardness(category string) string {
	switch category {
	case CatPartial, CatUncommitted, CatWrongTarget, CatSideEffect:
		return HardnessHard
	case CatAbort, CatWrongApp:
		return HardnessObvious
	case CatClaim:
		return HardnessClaim
	}
	return ""
}

// Gate types of the Trust Layer (seed 004, D1): critical is a deliverable
// defect, process a broken method rule, administrative a packaging defect.
const (
	GateCritical       = "critical"
	GateProcess        = "process"
	GateAdministrative = "administrative"
)

// GateTypes lists gate types in severity order, most severe first.
var GateTypes = []string{GateCritical, GateProcess, GateAdministrative}

// IsCategory reports whether c is one of the seven failure codes.
func IsCategory(c string) bool { return slices.Contains(Categories, c) }
