#include "classifier/model/axis_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "classifier/model/label_threshold.hpp"
#include "classifier/model/stop_words.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/largest_entry.hpp"
#include "common/parallel_tasks.hpp"
#include "common/seeded_random.hpp"
#include "common/text_file.hpp"

namespace faultline::model {

AxisTraining AxisTraining::standard() {
  AxisTraining t;
  // Word bigrams never won the inner cross-validation on the bundled corpus and double the fits.
  FastTextParams p;
  p.word_ngrams = 1;
  p.lr = 1.0;
  p.epoch = 40;
  t.grid.push_back(p);
  t.jobs = common::default_jobs();
  return t;
}

std::vector<ClassDescription> description_rows(const std::vector<ClassDescription>& descriptions,
                                               const std::vector<std::string>& classes, int copies) {
  std::vector<ClassDescription> once, rows;
  for (const auto& d : descriptions) {
    if (std::find(classes.begin(), classes.end(), d.label) != classes.end()) once.push_back(d);
  }
  for (int copy = 0; copy < copies; ++copy) rows.insert(rows.end(), once.begin(), once.end());
  return rows;
}

std::vector<int> stratified_folds(const std::vector<std::string>& labels, int folds, uint64_t seed) {
  std::map<std::string, std::vector<size_t>> by_label;
  for (size_t i = 0; i < labels.size(); ++i) by_label[labels[i]].push_back(i);
  std::vector<int> fold(labels.size());
  int next = 0;
  for (const auto& [label, items] : by_label) {
    for (size_t k : common::seeded_permutation(items.size(), seed)) fold[items[k]] = next++ % folds;
  }
  return fold;
}

namespace {

constexpr double kProbabilityFloor = 1e-4;  // what fastText's log probability is clipped at
constexpr double kVoteSmoothing = 0.1;      // similarity mass added to every class of a neighbour vote
constexpr double kCountSmoothing = 0.5;     // pseudo-count of every class in the priors
// How a saved model's temperature is read (combine: it tempers the winner's odds against the rest).
constexpr const char* kCalibration = "winner_odds";

// Where each class is among a fastText model's labels (SIZE_MAX: a class the model never saw).
std::vector<size_t> fasttext_labels_of(const std::vector<std::string>& classes, const FastTextModel& model) {
  std::vector<size_t> out;
  for (const auto& c : classes) {
    const auto& labels = model.labels();
    auto it = std::find(labels.begin(), labels.end(), c);
    out.push_back(it == labels.end() ? SIZE_MAX : static_cast<size_t>(it - labels.begin()));
  }
  return out;
}

// fastText's log probability of each class, clipped at the floor; `word_ids` are the model's ids of the
// tokens.
std::vector<double> log_fasttext_by_class(const FastTextModel& model,
                                          const std::vector<size_t>& label_of_class,
                                          const std::vector<int32_t>& word_ids, const Tokens& tokens,
                                          TokenSpan skipped) {
  const std::vector<double> p = model.probabilities(word_ids, tokens, skipped);
  std::vector<double> out;
  out.reserve(label_of_class.size());
  for (size_t label : label_of_class)
    out.push_back(std::log(std::max(label == SIZE_MAX ? 0.0 : p[label], kProbabilityFloor)));
  return out;
}

std::vector<double> rules_by_class(const Distribution* rule_scores, const std::vector<std::string>& classes) {
  std::vector<double> out(classes.size(), 0.0);
  if (!rule_scores) return out;
  for (size_t c = 0; c < classes.size(); ++c) {
    auto it = rule_scores->find(classes[c]);
    if (it != rule_scores->end()) out[c] = it->second;
  }
  return out;
}

// The distinct labels, sorted: an axis's classes.
std::vector<std::string> classes_of(std::vector<std::string> labels) {
  std::sort(labels.begin(), labels.end());
  labels.erase(std::unique(labels.begin(), labels.end()), labels.end());
  return labels;
}

size_t class_index(const std::vector<std::string>& classes, const std::string& label) {
  return static_cast<size_t>(std::lower_bound(classes.begin(), classes.end(), label) - classes.begin());
}

std::vector<double> log_priors_of(const std::vector<std::string>& labels,
                                  const std::vector<std::string>& classes) {
  std::vector<double> counts(classes.size(), kCountSmoothing);
  for (const auto& l : labels) counts[class_index(classes, l)] += 1;
  double total = static_cast<double>(labels.size()) + kCountSmoothing * static_cast<double>(classes.size());
  for (auto& c : counts) c = std::log(c / total);
  return counts;
}

Distribution to_distribution(const std::vector<double>& p, const std::vector<std::string>& classes) {
  Distribution out;
  for (size_t c = 0; c < classes.size(); ++c) out.emplace(classes[c], p[c]);
  return out;
}

size_t argmax(const std::vector<double>& p) {
  return static_cast<size_t>(std::max_element(p.begin(), p.end()) - p.begin());
}

// Accuracy plus macro-F1 (the two figures the axis is judged by), log loss to break ties.
struct Score {
  double merit = -1;
  double loss = 0;
  bool better_than(const Score& o) const {
    return std::abs(merit - o.merit) > 1e-12 ? merit > o.merit : loss < o.loss - 1e-9;
  }
};

Score score(const std::vector<AxisEvidence>& evidence, const std::vector<size_t>& gold,
            const AxisWeights& w) {
  const size_t classes = evidence.empty() ? 0 : evidence[0].log_fasttext.size();
  std::vector<int> tp(classes), fp(classes), fn(classes);
  Score s{0, 0};
  int correct = 0;
  for (size_t i = 0; i < evidence.size(); ++i) {
    auto p = combine(evidence[i], w);
    size_t predicted = argmax(p);
    if (predicted == gold[i]) {
      ++correct, ++tp[predicted];
    } else {
      ++fp[predicted], ++fn[gold[i]];
    }
    s.loss -= std::log(std::max(p[gold[i]], 1e-6));
  }
  double f1_sum = 0;
  int counted = 0;
  for (size_t c = 0; c < classes; ++c) {
    if (tp[c] + fp[c] + fn[c] == 0) continue;  // neither true nor predicted: not counted (as in metrics)
    f1_sum += 2.0 * tp[c] / (2.0 * tp[c] + fp[c] + fn[c]);
    ++counted;
  }
  s.merit = static_cast<double>(correct) / static_cast<double>(evidence.size()) +
            (counted ? f1_sum / counted : 0.0);
  return s;
}

std::string majority_label(const std::vector<AxisExample>& examples) {
  std::map<std::string, int> counts;
  for (const auto& e : examples) ++counts[e.label];
  return common::largest_entry(counts).first;  // ties: alphabetically first, as the map is ordered
}

// A fastText model of the documents in `rows`, learning `labels` (the examples' own, or their groups), and
// of `descriptions` (fastText documents) read after them.
FastTextModel fit(const std::vector<std::string>& documents, const std::vector<std::string>& labels,
                  const std::vector<size_t>& rows, const FastTextParams& params,
                  const std::vector<ClassDescription>& descriptions = {}) {
  std::vector<std::string> docs, row_labels;
  for (size_t i : rows) {
    docs.push_back(documents[i]);
    row_labels.push_back(labels[i]);
  }
  for (const auto& d : descriptions) {
    docs.push_back(d.document);
    row_labels.push_back(d.label);
  }
  return FastTextModel::train(docs, row_labels, params);
}

// The group of each of `names` (classes or labels); a name without one is an error in the training setup.
std::vector<std::string> groups_of(const std::vector<std::string>& names,
                                   const std::map<std::string, std::string>& class_groups) {
  std::vector<std::string> out;
  for (const auto& name : names) {
    auto it = class_groups.find(name);
    if (it == class_groups.end()) throw Error("train: the class '" + name + "' has no group");
    out.push_back(it->second);
  }
  return out;
}

}  // namespace

std::string fasttext_document(const std::string& document, TokenSpan discussion_again,
                              const FastTextReading& reading) {
  std::string out;
  out.reserve(document.size());
  size_t position = 0;  // of the token in tokenize(document)
  const TokenSpan skipped = skipped_tokens(reading, discussion_again);
  for_each_token(document, [&](std::string_view token) {
    const size_t at = position++;
    if (skipped.contains(at) || (reading.without_numbers && token == "<num>")) return;
    if (reading.without_stop_words && is_english_stop_word(token)) return;
    if (!out.empty()) out += ' ';
    out += token;
  });
  return out;
}

std::vector<double> neighbour_vote(const std::vector<Neighbour>* neighbours,
                                   const std::vector<std::string>& example_labels,
                                   const std::vector<std::string>& classes,
                                   const std::vector<std::string>& description_labels,
                                   double description_weight) {
  std::vector<double> mass(classes.size(), kVoteSmoothing);
  double total = kVoteSmoothing * static_cast<double>(classes.size());
  if (neighbours) {
    const size_t examples = example_labels.size();
    for (const auto& n : *neighbours) {
      const bool described = n.item >= examples;
      if (described && n.item - examples >= description_labels.size()) continue;
      size_t c =
          class_index(classes, described ? description_labels[n.item - examples] : example_labels[n.item]);
      if (c == classes.size()) continue;
      const double vote = described ? description_weight * n.similarity : n.similarity;
      mass[c] += vote;
      total += vote;
    }
  }
  for (auto& m : mass) m = std::log(m / total);
  return mass;
}

std::vector<double> combine(const AxisEvidence& e, const AxisWeights& w) {
  const size_t classes = e.log_fasttext.size();
  if (e.rules.size() != classes || e.discussion_rules.size() != classes ||
      e.log_neighbours.size() != classes || e.log_prior.size() != classes || e.log_group.size() != classes)
    throw Error("combine: the evidence does not give every member's value for each of the " +
                std::to_string(classes) + " classes");
  if (!(w.temperature >= 1))
    throw Error("combine: a temperature under 1 could make another class likelier than the winner");
  std::vector<double> score(classes);
  size_t top = 0;
  for (size_t c = 0; c < classes; ++c) {
    score[c] = e.log_fasttext[c] + w.rule * e.rules[c] + w.discussion_rule * e.discussion_rules[c] +
               w.neighbour * e.log_neighbours[c] - w.prior_correction * e.log_prior[c] +
               w.group * e.log_group[c];
    if (score[c] > score[top]) top = c;
  }
  // rest = Σ_{c≠top} e^(s_c − s_top): the untempered odds of the likeliest class are 1 / rest. Each rival's
  // term is kept in p until its share is known.
  std::vector<double> p(classes, 0.0);
  double rest = 0;
  for (size_t c = 0; c < classes; ++c) {
    if (c != top) rest += (p[c] = std::exp(score[c] - score[top]));
  }
  if (rest == 0) {  // one class, or every other infinitely less likely (each term 0)
    if (classes) p[top] = 1;
    return p;
  }
  // Tempering those odds, 1 / (1 + rest^(1/T)), calibrates the winner's probability without reordering the
  // issues by it: how sure the model is of one issue against another is the untempered odds' ranking, while
  // a temperature over every class lets a long tail of unlikely classes lower it (classifier/EXPERIMENTS.md).
  const double p_top = 1 / (1 + std::pow(rest, 1 / w.temperature));
  // A rival's share is at most p_top (the header's bound); the min keeps rounding from lifting a tied
  // rival over the winner (1 − 1/3 rounds up).
  for (size_t c = 0; c < classes; ++c) p[c] = c == top ? p_top : std::min(p_top, (1 - p_top) * p[c] / rest);
  return p;
}

double calibrated_temperature(const std::vector<AxisEvidence>& evidence, const std::vector<size_t>& gold,
                              AxisWeights weights, const std::vector<double>& candidates) {
  if (candidates.empty()) throw Error("train: no temperature to choose from");
  double best = candidates.front(), best_loss = std::numeric_limits<double>::infinity();
  for (double t : candidates) {
    weights.temperature = t;
    double loss = 0;
    for (size_t i = 0; i < evidence.size(); ++i) {
      std::vector<double> p = combine(evidence[i], weights);
      const size_t winner = argmax(p);
      loss -= std::log(std::max(winner == gold[i] ? p[winner] : 1 - p[winner], 1e-12));
    }
    if (loss < best_loss - 1e-9) best_loss = loss, best = t;
  }
  return best;
}

AxisModel AxisModel::train(const std::string& axis, const std::vector<AxisExample>& examples,
                           const AxisTraining& training) {
  if (examples.size() < static_cast<size_t>(training.folds)) {
    throw Error("train: the " + axis + " axis has " + std::to_string(examples.size()) +
                " labeled examples, fewer than the " + std::to_string(training.folds) +
                " cross-validation folds");
  }
  for (const auto& params : training.grid) {
    const auto& reading = training.fasttext_reading;
    if ((reading.without_numbers || reading.without_stop_words) && params.word_ngrams > 1) {
      throw Error("train: the " + axis + " axis's fastText models learn without " +
                  (reading.without_numbers ? "<num>" : "stop words") +
                  ", which needs unigrams (word n-grams would span the dropped tokens)");
    }
  }
  const size_t n = examples.size();
  std::vector<std::string> labels, fasttext_documents;
  std::vector<Tokens> tokens;
  std::vector<TokenSpan> skipped;  // by example: the tokens its fastText models do not read
  for (const auto& e : examples) {
    labels.push_back(e.label);
    tokens.push_back(tokenize(e.document));
    fasttext_documents.push_back(
        fasttext_document(e.document, e.discussion_again, training.fasttext_reading));
    skipped.push_back(model::skipped_tokens(training.fasttext_reading, e.discussion_again));
  }
  std::vector<int> fold = stratified_folds(labels, training.folds, training.seed);
  // The descriptions of the labeled classes, as the fastText fits read them.
  std::vector<ClassDescription> descriptions =
      description_rows(training.class_descriptions, labels, training.description_copies);
  for (auto& d : descriptions) d.document = fasttext_document(d.document, {}, training.fasttext_reading);

  AxisModel m;
  m.axis_ = axis;
  m.reading_ = training.fasttext_reading;
  m.description_copies_ = training.description_copies;
  for (const auto& d : description_rows(training.class_descriptions, labels, 1))
    m.described_classes_.push_back(d.label);
  m.majority_ = majority_label(examples);
  m.neighbour_term_counts_ = training.neighbour_term_counts;
  m.classes_ = classes_of(labels);
  std::vector<size_t> gold;
  for (const auto& l : labels) gold.push_back(class_index(m.classes_, l));

  // The group member, where the classes have groups: a fastText model (the first grid setting) of them.
  const bool use_group = !training.class_groups.empty() &&
                         std::any_of(training.group_weights.begin(), training.group_weights.end(),
                                     [](double w) { return w != 0; });
  const std::vector<std::string> group_labels =
      use_group ? groups_of(labels, training.class_groups) : std::vector<std::string>{};
  const std::vector<std::string> group_of_class =
      use_group ? groups_of(m.classes_, training.class_groups) : std::vector<std::string>{};
  const std::vector<double> group_weights = use_group ? training.group_weights : std::vector<double>{0.0};

  // Every fastText fit is independent: the out-of-fold fits of each grid setting and the final fit of
  // each, then those of the group model, run in parallel. (Only the chosen setting's final fit is kept;
  // the grid is usually one setting.)
  const size_t grid = training.grid.size(), folds = static_cast<size_t>(training.folds);
  std::vector<std::vector<size_t>> train_rows(folds), test_rows(folds);
  for (size_t i = 0; i < n; ++i) {
    for (size_t f = 0; f < folds; ++f)
      (static_cast<size_t>(fold[i]) == f ? test_rows : train_rows)[f].push_back(i);
  }
  std::vector<size_t> all(n);
  for (size_t i = 0; i < n; ++i) all[i] = i;
  std::vector<FastTextModel> models(grid * (folds + 1));
  std::vector<FastTextModel> group_models(use_group ? folds + 1 : 0);  // by fold, the final one last
  common::run_in_parallel(models.size() + group_models.size(), training.jobs, [&](size_t task) {
    if (task >= models.size()) {
      size_t f = task - models.size();
      group_models[f] =
          fit(fasttext_documents, group_labels, f == folds ? all : train_rows[f], training.grid[0]);
      return;
    }
    size_t g = task / (folds + 1), f = task % (folds + 1);
    models[task] =
        fit(fasttext_documents, labels, f == folds ? all : train_rows[f], training.grid[g], descriptions);
  });

  // The searched descriptions, in every fold's index after its examples.
  std::vector<Tokens> searched_tokens;
  for (const auto& d : training.searched_descriptions) searched_tokens.push_back(tokenize(d.document));
  if (training.description_neighbour_weight != 0 && !training.searched_descriptions.empty()) {
    m.description_neighbour_weight_ = training.description_neighbour_weight;
    for (const auto& d : training.searched_descriptions) m.description_labels_.push_back(d.label);
  }

  // The evidence of every example from models that never saw it: fastText, neighbours and priors of its
  // fold's training rows.
  std::vector<std::vector<AxisEvidence>> evidence(grid, std::vector<AxisEvidence>(n));
  for (size_t f = 0; f < folds; ++f) {
    std::vector<Tokens> fold_tokens;
    std::vector<std::string> fold_labels;
    for (size_t i : train_rows[f]) {
      fold_tokens.push_back(tokens[i]);
      fold_labels.push_back(labels[i]);
    }
    const size_t fold_examples = fold_tokens.size();
    fold_tokens.insert(fold_tokens.end(), searched_tokens.begin(), searched_tokens.end());
    TfidfIndex index(fold_tokens, training.neighbour_max_document_share);
    auto priors = log_priors_of(fold_labels, m.classes_);
    std::vector<std::vector<size_t>> label_of_class;  // by grid setting: its fold model's label of each class
    for (size_t g = 0; g < grid; ++g)
      label_of_class.push_back(fasttext_labels_of(m.classes_, models[g * (folds + 1) + f]));
    const std::vector<size_t> group_label_of_class =
        use_group ? fasttext_labels_of(group_of_class, group_models[f]) : std::vector<size_t>{};
    for (size_t i : test_rows[f]) {
      auto neighbours = index.nearest(tokens[i], training.neighbours, training.neighbour_term_counts,
                                      fold_examples + m.description_labels_.size());
      AxisEvidence base;
      base.rules = rules_by_class(&examples[i].rule_scores, m.classes_);
      base.discussion_rules = rules_by_class(&examples[i].discussion_rule_scores, m.classes_);
      base.log_neighbours = neighbour_vote(&neighbours, fold_labels, m.classes_, m.description_labels_,
                                           m.description_neighbour_weight_);
      base.log_prior = priors;
      base.log_group = use_group ? log_fasttext_by_class(group_models[f], group_label_of_class,
                                                         group_models[f].word_ids(tokens[i], skipped[i]),
                                                         tokens[i], skipped[i])
                                 : std::vector<double>(m.classes_.size(), 0.0);
      for (size_t g = 0; g < grid; ++g) {
        const FastTextModel& model = models[g * (folds + 1) + f];
        evidence[g][i] = base;
        evidence[g][i].log_fasttext = log_fasttext_by_class(
            model, label_of_class[g], model.word_ids(tokens[i], skipped[i]), tokens[i], skipped[i]);
      }
    }
  }

  size_t best_grid = 0;
  Score best;
  for (size_t g = 0; g < grid; ++g) {
    Score s = score(evidence[g], gold, AxisWeights{});
    if (g == 0 || s.better_than(best)) best = s, best_grid = g;
  }
  m.params_ = training.grid[best_grid];
  const auto& chosen = evidence[best_grid];
  best = Score{};
  for (double group : group_weights) {
    for (double rule : training.rule_weights) {
      for (double discussion_rule : training.discussion_rule_weights) {
        for (double neighbour : training.neighbour_weights) {
          for (double correction : training.prior_corrections) {
            AxisWeights w{rule, discussion_rule, neighbour, correction, 1.0, group};
            Score s = score(chosen, gold, w);
            if (s.better_than(best)) best = s, m.weights_ = w;
          }
        }
      }
    }
  }
  m.weights_.temperature = calibrated_temperature(chosen, gold, m.weights_, training.temperatures);
  if (!training.label_accuracy) {
    m.label_threshold_ = training.fixed_label_threshold;
  } else {
    // Chosen on the winners of models that never saw their examples, as the temperature is: a threshold
    // read off the final model's own training examples would find it surer than it is.
    std::vector<double> winner_p;
    std::vector<bool> right;
    for (size_t i = 0; i < n; ++i) {
      const std::vector<double> p = combine(chosen[i], m.weights_);
      const size_t winner = argmax(p);
      winner_p.push_back(p[winner]);
      right.push_back(winner == gold[i]);
    }
    m.label_accuracy_ = *training.label_accuracy;
    m.label_threshold_ = model::label_threshold(winner_p, right, *training.label_accuracy);
  }
  m.fasttext_ = std::move(models[best_grid * (folds + 1) + folds]);
  m.fasttext_label_of_class_ = fasttext_labels_of(m.classes_, m.fasttext_);
  if (m.weights_.group != 0) {
    for (size_t c = 0; c < m.classes_.size(); ++c) m.class_groups_[m.classes_[c]] = group_of_class[c];
    m.group_fasttext_ = std::move(group_models[folds]);
    m.group_label_of_class_ = fasttext_labels_of(group_of_class, *m.group_fasttext_);
  }
  m.log_priors_ = log_priors_of(labels, m.classes_);
  m.training_labels_ = labels;
  return m;
}

Distribution AxisModel::predict(const Tokens& tokens, const AxisInputs& inputs) const {
  const TokenSpan skipped = skipped_tokens(inputs.discussion_again);
  AxisEvidence e;
  e.log_fasttext = log_fasttext_by_class(
      fasttext_, fasttext_label_of_class_,
      inputs.word_ids ? *inputs.word_ids : fasttext_.word_ids(tokens, skipped), tokens, skipped);
  e.log_group = group_fasttext_ ? log_fasttext_by_class(*group_fasttext_, group_label_of_class_,
                                                        inputs.group_word_ids
                                                            ? *inputs.group_word_ids
                                                            : group_fasttext_->word_ids(tokens, skipped),
                                                        tokens, skipped)
                                : std::vector<double>(classes_.size(), 0.0);
  e.rules = rules_by_class(inputs.rule_scores, classes_);
  e.discussion_rules = rules_by_class(inputs.discussion_rule_scores, classes_);
  e.log_neighbours = neighbour_vote(inputs.neighbours, training_labels_, classes_, description_labels_,
                                    description_neighbour_weight_);
  e.log_prior = log_priors_;
  return to_distribution(combine(e, weights_), classes_);
}

std::vector<std::string> AxisModel::group_vocabulary() const {
  return group_fasttext_ ? group_fasttext_->vocabulary() : std::vector<std::string>{};
}

std::string AxisModel::predict_rules(const Distribution& rule_scores) const {
  std::string category = common::largest_entry(rule_scores).first;
  return category.empty() ? majority_ : category;
}

nlohmann::json AxisModel::describe() const {
  return {{"axis", axis_},
          {"fasttext", params_.describe()},
          {"epoch", params_.epoch},
          {"lr", params_.lr},
          {"word_ngrams", params_.word_ngrams},
          {"dim", params_.dim},
          {"seed", params_.seed},
          {"fasttext_without_numbers", reading_.without_numbers},
          {"fasttext_discussion_once", reading_.discussion_once},
          {"fasttext_without_stop_words", reading_.without_stop_words},
          {"fasttext_described_classes", described_classes_},
          {"fasttext_description_copies", description_copies_},
          {"rule_weight", weights_.rule},
          {"discussion_rule_weight", weights_.discussion_rule},
          {"neighbour_weight", weights_.neighbour},
          {"prior_correction", weights_.prior_correction},
          {"temperature", weights_.temperature},
          {"calibration", kCalibration},
          {"label_threshold", label_threshold_},
          {"label_accuracy", label_accuracy_},
          {"group_weight", weights_.group},
          {"class_groups", class_groups_},
          {"majority", majority_},
          {"neighbour_term_counts", term_counts_name(neighbour_term_counts_)},
          {"description_neighbour_labels", description_labels_},
          {"description_neighbour_weight", description_neighbour_weight_},
          {"training_labels", training_labels_}};
}

void AxisModel::save(const std::string& directory) const {
  fasttext_.save(directory + "/" + axis_ + ".ftz");
  if (group_fasttext_) group_fasttext_->save(directory + "/" + axis_ + ".group.ftz");
  common::write_file_atomically(directory + "/" + axis_ + ".json", describe().dump(2) + "\n");
}

AxisModel AxisModel::load(const std::string& directory, const std::string& axis) {
  AxisModel m;
  m.axis_ = axis;
  std::string path = directory + "/" + axis + ".json";
  try {
    auto j = nlohmann::json::parse(common::read_text_file(path));
    m.params_.epoch = j.at("epoch").get<int>();
    m.params_.lr = j.at("lr").get<double>();
    m.params_.word_ngrams = j.at("word_ngrams").get<int>();
    m.params_.dim = j.at("dim").get<int>();
    m.params_.seed = j.at("seed").get<int>();
    m.reading_.without_numbers = j.at("fasttext_without_numbers").get<bool>();
    m.reading_.discussion_once = j.at("fasttext_discussion_once").get<bool>();
    // Models saved before stop words could be left out have no field: they learned, and so read, every word.
    m.reading_.without_stop_words = j.value("fasttext_without_stop_words", false);
    // Models saved before class descriptions were read have neither field: they read none.
    m.described_classes_ = j.value("fasttext_described_classes", std::vector<std::string>{});
    m.description_copies_ = j.value("fasttext_description_copies", 0);
    m.weights_.rule = j.at("rule_weight").get<double>();
    m.weights_.discussion_rule = j.at("discussion_rule_weight").get<double>();
    m.weights_.neighbour = j.at("neighbour_weight").get<double>();
    m.weights_.prior_correction = j.at("prior_correction").get<double>();
    m.weights_.temperature = j.at("temperature").get<double>();
    // Models saved before have no field: their temperature divided every class's score, and read as the
    // winner's it would give other probabilities than those the model was calibrated for.
    if (j.value("calibration", std::string()) != kCalibration)
      throw Error(path +
                  ": calibrated over every class by an older faultline; retrain with 'faultline train'");
    m.label_threshold_ = j.at("label_threshold").get<double>();
    m.label_accuracy_ = j.at("label_accuracy").get<double>();
    m.weights_.group = j.at("group_weight").get<double>();
    m.class_groups_ = j.at("class_groups").get<std::map<std::string, std::string>>();
    m.majority_ = j.at("majority").get<std::string>();
    // Models saved before the field counted repeated terms damped, as the neighbour search did then.
    const std::string counts =
        j.value("neighbour_term_counts", std::string(term_counts_name(TermCounts::kDamped)));
    const std::optional<TermCounts> named = term_counts_named(counts);
    if (!named)
      throw Error(path + ": neighbour_term_counts is '" + counts + "', neither 'damped' nor 'once'");
    m.neighbour_term_counts_ = *named;
    // Models saved before descriptions were searched have neither field: their vote counted none.
    m.description_labels_ = j.value("description_neighbour_labels", std::vector<std::string>{});
    m.description_neighbour_weight_ = j.value("description_neighbour_weight", 0.0);
    m.training_labels_ = j.at("training_labels").get<std::vector<std::string>>();
  } catch (const nlohmann::json::exception& e) {
    throw Error(path + ": damaged model description (" + e.what() +
                "), or one written by an older faultline; retrain with 'faultline train'");
  }
  // Descriptions counted at no weight, or a weight with none to count, is no model train writes.
  if (m.training_labels_.empty() || !(m.weights_.temperature >= 1) || m.description_neighbour_weight_ < 0 ||
      !(m.label_threshold_ >= 0 && m.label_threshold_ <= label_nothing_threshold()) ||
      !(m.label_accuracy_ >= 0 && m.label_accuracy_ <= 1) ||
      (m.label_accuracy_ == 0 && labels_nothing(m.label_threshold_)) ||
      (m.description_neighbour_weight_ == 0) != m.description_labels_.empty()) {
    throw Error(path + ": inconsistent model description; retrain with 'faultline train'");
  }
  // Classes and priors follow from the training labels, as in train().
  m.classes_ = classes_of(m.training_labels_);
  m.log_priors_ = log_priors_of(m.training_labels_, m.classes_);
  m.fasttext_ = FastTextModel::load(directory + "/" + axis + ".ftz");
  m.fasttext_label_of_class_ = fasttext_labels_of(m.classes_, m.fasttext_);
  if (m.weights_.group != 0) {
    std::vector<std::string> group_of_class;
    for (const auto& c : m.classes_) {
      auto it = m.class_groups_.find(c);
      if (it == m.class_groups_.end())
        throw Error(path + ": the class '" + c + "' has no group; retrain with 'faultline train'");
      group_of_class.push_back(it->second);
    }
    m.group_fasttext_ = FastTextModel::load(directory + "/" + axis + ".group.ftz");
    m.group_label_of_class_ = fasttext_labels_of(group_of_class, *m.group_fasttext_);
    // Training keeps only groups its final group model learned: another group means a hand-edited model.
    for (size_t c = 0; c < m.classes_.size(); ++c) {
      if (m.group_label_of_class_[c] == SIZE_MAX)
        throw Error(path + ": the group '" + group_of_class[c] + "' of '" + m.classes_[c] +
                    "' is unknown to " + axis + ".group.ftz; retrain with 'faultline train'");
    }
  }
  return m;
}

}  // namespace faultline::model
