// The data files of taxonomy/, compiled into the binary so faultline runs from any directory.
// Each can be overridden at run time by a file given on the command line.
#pragma once

namespace faultline::taxonomy {

const char* builtin_taxonomy_json();   // taxonomy/taxonomy.json
const char* builtin_screening_json();  // taxonomy/screening.json
const char* builtin_rules_json();      // taxonomy/rules.json

}  // namespace faultline::taxonomy
