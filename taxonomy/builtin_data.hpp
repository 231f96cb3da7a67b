// The data files of taxonomy/, compiled into the binary so faultline runs from any directory.
// Only the screening rules can be replaced at run time (`faultline screen --rules FILE`); the taxonomy
// and the classifier rules are always these built-in copies, so changing them means editing the file and
// rebuilding.
#pragma once

namespace faultline::taxonomy {

const char* builtin_taxonomy_json();   // taxonomy/taxonomy.json
const char* builtin_screening_json();  // taxonomy/screening.json
const char* builtin_rules_json();      // taxonomy/rules.json

}  // namespace faultline::taxonomy
