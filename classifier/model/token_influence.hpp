// Why the classifier decided as it did, token by token (leave-one-token-out): a token's influence on an axis
// is the drop in the probability of the class that axis chose when every occurrence of the token is removed
// from the issue's document and the whole classifier (fastText and the neighbour vote) runs again. The rule
// scores stay as they are (the rules that fired are reported apart), so the tokens the rules add to the
// document (__rule_…) are not tried.
#pragma once

#include <string>
#include <vector>

#include "classifier/model/issue_classifier.hpp"

namespace faultline::model {

struct TokenInfluence {
  std::string token;
  double drop = 0;  // chosen class's probability with the token minus without it
};

struct DecisionInfluences {
  // Largest drop first (ties: the token alphabetically first), at most `top` per axis, only tokens whose
  // removal lowers the probability; scope stays empty without a scope model.
  std::vector<TokenInfluence> scope, symptom, root_cause;
  size_t tokens_tried = 0;     // distinct tokens whose removal was tried
  size_t tokens_distinct = 0;  // distinct tokens that could be tried
};

// Every try re-predicts the whole document, so a long one cannot try each of its distinct tokens: tries ×
// document length stays within `budget` (but at least 5 tries), and the most frequent tokens (then the
// earliest) are tried first. The bundled issues all fit: every token of theirs is tried.
DecisionInfluences token_influences(const IssueClassifier& model, const IssueFeatures& features,
                                    const IssuePrediction& prediction, size_t top = 5,
                                    size_t budget = 2'000'000);

}  // namespace faultline::model
