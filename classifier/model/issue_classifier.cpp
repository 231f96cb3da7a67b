#include "classifier/model/issue_classifier.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <nlohmann/json.hpp>

#include "classifier/model/text_features.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/fnv1a.hpp"
#include "common/largest_entry.hpp"
#include "common/repository_name.hpp"
#include "common/text_file.hpp"
#include "taxonomy/builtin_data.hpp"
#include "taxonomy/taxonomy.hpp"

namespace faultline::model {

IssueFeatures extract_features(const RuleSet& rules, const datasets::IssueRecord& whole) {
  const std::optional<datasets::IssueRecord> cut = cut_to_what_is_read(whole);
  const datasets::IssueRecord& issue = cut ? *cut : whole;
  IssueFeatures f;
  // The discussion follows the rest after a line break, and a rule matches within a line and holds to no
  // text's start or end (RuleSet): the rules that fire in the whole text are those of the part before the
  // discussion and those of the discussion, each part scanned once (the discussion's alone are evidence of
  // their own, below).
  const std::vector<int> in_discussion = rules.fired(issue.discussion);
  const std::vector<int> before_discussion = rules.fired(text_before_discussion(issue));
  std::set_union(before_discussion.begin(), before_discussion.end(), in_discussion.begin(),
                 in_discussion.end(), std::back_inserter(f.fired));
  // The environment section (versions, GPU, operating system) describes the reporter's machine more than
  // the failure, and made reports of different kinds look alike: the documents leave it to the rules.
  // The parts are normalised in turn, the code-span state carried across, and joined: the whole text's
  // form, with the discussion's kept for its second place below.
  bool in_code = false;
  std::string report;
  auto append = [&](const std::string& part) {
    const std::string normalised = normalize_for_fasttext(part, in_code);
    if (!report.empty() && !normalised.empty()) report += ' ';
    report += normalised;
  };
  append(issue.title);
  append(issue.body);
  for (const auto& line : issue.error_lines) append(line);
  const bool discussion_opens_in_code = in_code;
  const std::string discussion_in_report = normalize_for_fasttext(issue.discussion, in_code);
  // The repository is a strong prior (a Triton report is more often a compiler problem), so it is a token:
  // its name folded to one case, as GitHub's names ignore case.
  f.document = "__repo_" + common::folded_repository_name(issue.repo) + " " + report;
  if (!report.empty() && !discussion_in_report.empty()) f.document += ' ';
  f.document += discussion_in_report;
  // The discussion says what the cause was and what fixed it: its words count twice, for the root cause's
  // fastText average and for the neighbours' term weights alike. (The symptom's fastText model skips the
  // second reading: a symptom is what the report shows.) Read alone the discussion starts outside a code
  // span, which changes its form only when the report left a span open.
  const std::string discussion =
      discussion_opens_in_code ? normalize_for_fasttext(issue.discussion) : discussion_in_report;
  const size_t first_read = token_count(f.document);
  if (!discussion.empty()) f.document += " " + discussion;
  f.discussion_again = {first_read, first_read + token_count(discussion)};
  // Rule hits become tokens too, so fastText can weigh them against the words.
  for (int i : f.fired) f.document += " __rule_" + rules.rules()[i].id;
  f.tokens = tokenize(f.document);
  f.symptom_rules = rules.scores(f.fired, "symptom");
  f.root_cause_rules = rules.scores(f.fired, "root_cause");
  f.symptom_discussion_rules = rules.scores(in_discussion, "symptom");
  f.root_cause_discussion_rules = rules.scores(in_discussion, "root_cause");
  return f;
}

namespace {

// A text of the taxonomy read as an issue from no repository, with a category's name for a title.
std::string description_document(const RuleSet& rules, const std::string& name, const std::string& body) {
  datasets::IssueRecord r;
  r.title = name;
  r.body = body;
  return extract_features(rules, r).document;
}

}  // namespace

std::vector<ClassDescription> root_cause_descriptions(const RuleSet& rules) {
  std::vector<ClassDescription> out;
  for (const auto& category : taxonomy::Taxonomy::builtin().root_causes()) {
    std::string body = category.definition;
    for (const auto& typical : category.includes) body += "\n" + typical;
    out.push_back({category.id, description_document(rules, category.name, body)});
  }
  return out;
}

std::vector<ClassDescription> root_cause_searched_descriptions(const RuleSet& rules) {
  std::vector<ClassDescription> out;
  for (const auto& category : taxonomy::Taxonomy::builtin().root_causes()) {
    out.push_back({category.id, description_document(rules, category.name, category.definition)});
    for (const auto& typical : category.includes)
      out.push_back({category.id, description_document(rules, category.name, typical)});
  }
  return out;
}

void require_two_classes(const std::vector<LabeledIssue>& labeled, const std::string& verb) {
  if (labeled.empty()) return;  // "no labels" is said where it matters
  for (auto [axis, label] : {std::pair{"symptom", &LabeledIssue::symptom}, {"root cause", &LabeledIssue::root_cause}}) {
    const std::string& first = labeled.front().*label;
    if (std::all_of(labeled.begin(), labeled.end(), [&](const LabeledIssue& l) { return l.*label == first; }))
      throw Error(verb + ": every final label's " + axis + " is '" + first +
                  "': a model needs two classes or more to choose between");
  }
}

IssueClassifier IssueClassifier::train(const std::vector<LabeledIssue>& labeled,
                                       const std::vector<datasets::IssueRecord>& scoped,
                                       const AxisTraining& training, const LabelPolicy& labels,
                                       const AxisProgress& progress) {
  const auto& taxonomy = taxonomy::Taxonomy::builtin();
  IssueClassifier c;
  // Saved as JSON, which has no NaN: such a model could be written but never read back.
  if (labels.abstain_below && !(*labels.abstain_below >= 0 && *labels.abstain_below <= 1))
    throw Error("train: the abstention threshold must be a probability, 0 to 1");
  // An accuracy of 0 would be met by labeling everything: that is a fixed threshold of 0.
  for (double accuracy : {labels.symptom_accuracy, labels.root_cause_accuracy}) {
    if (!(accuracy > 0 && accuracy <= 1))
      throw Error("train: an accuracy to label at must be more than 0 and at most 1");
  }
  uint64_t h = common::fnv1a(taxonomy::builtin_rules_json());
  std::vector<AxisExample> symptoms, causes, scopes;
  for (const auto& l : labeled) {
    if (!taxonomy.is_symptom(l.symptom))
      throw Error("train: " + l.issue.key() + " has unknown symptom '" + l.symptom + "'");
    if (!taxonomy.is_root_cause(l.root_cause)) {
      throw Error("train: " + l.issue.key() + " has unknown root cause '" + l.root_cause + "'");
    }
    IssueFeatures f = extract_features(c.rules_, l.issue);
    symptoms.push_back(
        {f.document, f.symptom_rules, f.symptom_discussion_rules, l.symptom, f.discussion_again});
    causes.push_back(
        {f.document, f.root_cause_rules, f.root_cause_discussion_rules, l.root_cause, f.discussion_again});
    c.documents_.push_back(f.document);
    h = common::fnv1a(f.document + "\x1f" + l.symptom + "\x1f" + l.root_cause + "\n", h);
  }
  for (const auto& issue : scoped) {
    if (!issue.scope) continue;
    IssueFeatures f = extract_features(c.rules_, issue);
    scopes.push_back({f.document, {}, {}, *issue.scope, f.discussion_again});
    h = common::fnv1a(issue.key() + "\x1f" + *issue.scope + "\n", h);
  }
  if (symptoms.empty()) throw Error("train: no manual labels to learn from (import and audit labels first)");
  // The scope model is trained only where people decided both ways, often enough to cross-validate.
  const bool train_scope =
      scopes.size() >= static_cast<size_t>(training.folds) * 2 &&
      std::any_of(scopes.begin(), scopes.end(), [&](const AxisExample& e) { return e.label != scopes[0].label; });
  const int axes = train_scope ? 3 : 2;
  auto starting = [&](const std::string& axis, int index) {
    if (progress) progress(axis, index, axes);
  };
  // The taxonomy's account of each labeled root cause is searched with the labeled issues, so that a cause
  // with few examples still has a neighbour to find (classifier/EXPERIMENTS.md).
  std::vector<std::string> cause_labels;
  for (const auto& e : causes) cause_labels.push_back(e.label);
  c.searched_descriptions_ = description_rows(root_cause_searched_descriptions(c.rules_), cause_labels, 1);
  // Each axis labels from a threshold chosen for its accuracy, or from the one fixed by hand.
  auto label_as = [&](AxisTraining& axis, double accuracy) {
    if (labels.abstain_below) {
      axis.fixed_label_threshold = *labels.abstain_below + 0.0;  // -0 is 0: one model, one version
    } else {
      axis.label_accuracy = accuracy;
    }
  };
  starting("symptom", 1);
  // A symptom is what the report shows; the discussion read twice made the symptom worse (the README's
  // six-seed table), so its fastText model reads it once.
  AxisTraining symptom_training = training;
  label_as(symptom_training, labels.symptom_accuracy);
  symptom_training.fasttext_reading.discussion_once = true;
  // Function words ("the", "was", "because") fill a report, and fastText averages every word it reads:
  // without them the symptom's fastText model alone was right more often (classifier/EXPERIMENTS.md). The
  // root cause's models keep them: without them (a first try, with NLTK's list) they were wrong more often.
  symptom_training.fasttext_reading.without_stop_words = true;
  // Its neighbour vote counts each term of a document once: a report that repeats a word (a log, a trace)
  // then looks no more like the others that have it (classifier/EXPERIMENTS.md).
  symptom_training.neighbour_term_counts = TermCounts::kOnce;
  // The descriptions have no symptom: its vote passes over them.
  symptom_training.searched_descriptions = c.searched_descriptions_;
  symptom_training.description_neighbour_weight = 0;
  c.symptom_ = AxisModel::train("symptom", symptoms, symptom_training);
  starting("root_cause", 2);
  // Root causes fall into the taxonomy's dimensions: a model of the dimension is the root cause's group
  // member.
  AxisTraining cause_training = training;
  label_as(cause_training, labels.root_cause_accuracy);
  for (const auto& rc : taxonomy.root_causes()) cause_training.class_groups[rc.id] = rc.dimension;
  // Numbers are masked to <num> in nearly every issue (94% of the bundled ones). For the root cause the
  // token only dilutes fastText's average of the word vectors, so its models learn without it.
  cause_training.fasttext_reading.without_numbers = true;
  // Several root causes have only a handful of labeled issues; the taxonomy's own account of each is more
  // text for them.
  cause_training.class_descriptions = root_cause_descriptions(c.rules_);
  cause_training.description_copies = kRootCauseDescriptionCopies;
  cause_training.searched_descriptions = c.searched_descriptions_;
  cause_training.description_neighbour_weight = kRootCauseDescriptionNeighbourWeight;
  for (const auto& d : cause_training.class_descriptions)
    h = common::fnv1a(d.label + "\x1f" + d.document + "\n", h);
  c.root_cause_ = AxisModel::train("root_cause", causes, cause_training);
  c.neighbours_ = training.neighbours;
  c.neighbour_max_document_share_ = training.neighbour_max_document_share;
  c.build_index();
  if (train_scope) {
    starting("scope", 3);
    // Scope has no rules and only two classes: one fastText setting (the first of the grid) is enough, and
    // the cross-validation then only calibrates the temperature. This keeps training within its budget.
    AxisTraining scope_training = training;
    scope_training.rule_weights = {0.0};
    scope_training.discussion_rule_weights = {0.0};
    scope_training.neighbour_weights = {0.0};
    scope_training.grid.resize(1);
    c.scope_ = AxisModel::train("scope", scopes, scope_training);
    h = common::fnv1a(c.scope_->describe().dump(), h);
  }
  h = common::fnv1a(c.symptom_.describe().dump() + c.root_cause_.describe().dump() +
                        std::to_string(c.neighbours_) + " " + std::to_string(c.neighbour_max_document_share_),
                    h);
  char version[17];
  std::snprintf(version, sizeof version, "%016llx", static_cast<unsigned long long>(h));
  c.version_ = version;
  c.index_words();
  return c;
}

void IssueClassifier::build_index() {
  std::vector<Tokens> tokens;
  for (const auto& d : documents_) tokens.push_back(tokenize(d));
  for (const auto& d : searched_descriptions_) tokens.push_back(tokenize(d.document));
  index_ = TfidfIndex(tokens, neighbour_max_document_share_);
}

void IssueClassifier::check_searched_items(const std::string& directory) const {
  // The index holds the documents, then the descriptions; each axis's vote takes its examples to be the
  // first items and the descriptions it counts to be all of those that follow, in order.
  std::vector<std::string> searched_labels;
  for (const auto& d : searched_descriptions_) searched_labels.push_back(d.label);
  for (const AxisModel* axis : {&symptom_, &root_cause_}) {
    if (axis->examples() != documents_.size())
      throw Error(directory + ": the " + axis->axis() + " model learned from " +
                  std::to_string(axis->examples()) + " issues, documents.json holds " +
                  std::to_string(documents_.size()) + "; retrain with 'faultline train'");
    if (!axis->description_labels().empty() && axis->description_labels() != searched_labels)
      throw Error(directory + "/searched_descriptions.json: not the descriptions the " + axis->axis() +
                  " model's vote counts; retrain with 'faultline train'");
  }
}

void IssueClassifier::index_words() {
  words_ = WordTable({symptom_.fasttext_vocabulary(), root_cause_.fasttext_vocabulary(),
                      scope_ ? scope_->fasttext_vocabulary() : std::vector<std::string>{},
                      index_.vocabulary(), root_cause_.group_vocabulary()});
}

IssueAnalysis IssueClassifier::analyse(const IssueFeatures& f) const {
  enum Member { kSymptom, kRootCause, kScope, kIndex, kDimension };
  // Each fastText model's ids of the tokens it reads; the index reads them all.
  std::vector<TokenSpan> skipped(kDimension + 1);
  skipped[kSymptom] = symptom_.skipped_tokens(f.discussion_again);
  skipped[kRootCause] = skipped[kDimension] = root_cause_.skipped_tokens(f.discussion_again);
  if (scope_) skipped[kScope] = scope_->skipped_tokens(f.discussion_again);
  const auto ids = words_.ids(f.tokens, skipped);
  IssueAnalysis a;
  // Each axis's vote reads the neighbours its model was trained with, found as it counts terms and among
  // the items it counts; both lists come from one pass over the postings.
  auto found = index_.nearest_terms_both(
      ids[kIndex], neighbours_,
      {NeighbourSearch{symptom_.neighbour_term_counts(), symptom_.searched_items()},
       NeighbourSearch{root_cause_.neighbour_term_counts(), root_cause_.searched_items()}});
  a.symptom_neighbours = std::move(found[0]);
  a.root_cause_neighbours = std::move(found[1]);
  if (scope_)
    a.scope = scope_->predict(f.tokens, {.word_ids = &ids[kScope], .discussion_again = f.discussion_again});
  a.symptom = symptom_.predict(f.tokens, {.rule_scores = &f.symptom_rules,
                                          .discussion_rule_scores = &f.symptom_discussion_rules,
                                          .neighbours = &a.symptom_neighbours,
                                          .word_ids = &ids[kSymptom],
                                          .discussion_again = f.discussion_again});
  a.root_cause = root_cause_.predict(f.tokens, {.rule_scores = &f.root_cause_rules,
                                                .discussion_rule_scores = &f.root_cause_discussion_rules,
                                                .neighbours = &a.root_cause_neighbours,
                                                .word_ids = &ids[kRootCause],
                                                .group_word_ids = &ids[kDimension],
                                                .discussion_again = f.discussion_again});
  return a;
}

IssuePrediction IssueClassifier::predict(const IssueFeatures& f) const { return predict(f, analyse(f)); }

IssuePrediction IssueClassifier::predict(const IssueFeatures& f, const IssueAnalysis& a) const {
  IssuePrediction p;
  if (scope_) std::tie(p.scope, p.scope_p) = common::largest_entry(a.scope);
  std::tie(p.symptom, p.symptom_p) = common::largest_entry(a.symptom);
  std::tie(p.root_cause, p.root_cause_p) = common::largest_entry(a.root_cause);
  for (int i : f.fired) p.rules_fired.push_back(rules_.rules()[i].id);
  p.abstain = !symptom_.labels(p.symptom_p) || !root_cause_.labels(p.root_cause_p);
  return p;
}

IssuePrediction IssueClassifier::predict(const datasets::IssueRecord& issue) const {
  return predict(extract_features(rules_, issue));
}

void IssueClassifier::save(const std::string& directory) const {
  // The model is written whole into a new directory and only then swapped in: a failed save leaves the
  // previous model usable.
  common::replace_directory_atomically(directory, [&](const std::string& staging) {
    symptom_.save(staging);
    root_cause_.save(staging);
    if (scope_) scope_->save(staging);
    nlohmann::json j = {{"version", version_},
                        {"text_features", kTextFeaturesVersion},
                        {"has_scope", scope_.has_value()},
                        {"neighbours", neighbours_},
                        {"neighbour_max_document_share", neighbour_max_document_share_}};
    common::write_file_atomically(staging + "/model.json", j.dump(2) + "\n");
    common::write_file_atomically(staging + "/documents.json", nlohmann::json(documents_).dump() + "\n");
    nlohmann::json descriptions = nlohmann::json::array();
    for (const auto& d : searched_descriptions_)
      descriptions.push_back({{"label", d.label}, {"document", d.document}});
    common::write_file_atomically(staging + "/searched_descriptions.json", descriptions.dump() + "\n");
  });
}

IssueClassifier IssueClassifier::load(const std::string& directory) {
  std::string path = directory + "/model.json";
  std::error_code error;
  bool found = std::filesystem::exists(path, error);
  if (error) {  // e.g. a model directory of another user (train makes it private to its owner)
    throw Error(directory + ": cannot read the model (" + error.message() + ")");
  }
  if (!found) throw Error(directory + ": no trained model here (run 'faultline train' first)");
  IssueClassifier c;
  try {
    auto j = nlohmann::json::parse(common::read_text_file(path));
    if (!j.is_object())
      throw Error(path + ": damaged model description (not a JSON object); retrain with 'faultline train'");
    // A model saved before the field was written records none: its documents may be of any earlier form.
    const nlohmann::json& features = j.contains("text_features") ? j.at("text_features") : nlohmann::json();
    if (!features.is_null() && !features.is_number_integer()) {
      throw Error(path +
                  ": damaged model description (text_features is not a whole number); retrain with "
                  "'faultline train'");
    }
    if (features.is_null() || features.get<int64_t>() != kTextFeaturesVersion) {
      throw Error(directory + ": the model was trained on documents of another form (text features " +
                  (features.is_null() ? std::string("none recorded") : features.dump()) +
                  ", this faultline writes " + std::to_string(kTextFeaturesVersion) +
                  "); retrain with 'faultline train'");
    }
    c.version_ = j.at("version").get<std::string>();
    c.neighbours_ = j.at("neighbours").get<size_t>();
    c.neighbour_max_document_share_ = j.at("neighbour_max_document_share").get<double>();
    if (j.at("has_scope").get<bool>()) c.scope_ = AxisModel::load(directory, "scope");
  } catch (const nlohmann::json::exception& e) {
    throw Error(path + ": damaged model description (" + e.what() + "); retrain with 'faultline train'");
  }
  std::string documents = directory + "/documents.json";
  try {
    c.documents_ = nlohmann::json::parse(common::read_text_file(documents)).get<std::vector<std::string>>();
  } catch (const nlohmann::json::exception& e) {
    throw Error(documents + ": damaged (" + std::string(e.what()) + "); retrain with 'faultline train'");
  }
  // A model saved before descriptions were searched has no file: its search held the documents alone.
  const std::string descriptions = directory + "/searched_descriptions.json";
  const bool has_descriptions = std::filesystem::exists(descriptions, error);
  if (error) throw Error(descriptions + ": cannot be read (" + error.message() + ")");
  if (has_descriptions) {
    try {
      const auto saved = nlohmann::json::parse(common::read_text_file(descriptions));
      if (!saved.is_array())
        throw Error(descriptions + ": damaged (not a JSON array); retrain with 'faultline train'");
      for (const auto& d : saved)
        c.searched_descriptions_.push_back(
            {d.at("label").get<std::string>(), d.at("document").get<std::string>()});
    } catch (const nlohmann::json::exception& e) {
      throw Error(descriptions + ": damaged (" + std::string(e.what()) + "); retrain with 'faultline train'");
    }
  }
  c.symptom_ = AxisModel::load(directory, "symptom");
  c.root_cause_ = AxisModel::load(directory, "root_cause");
  c.check_searched_items(directory);
  c.build_index();
  c.index_words();
  return c;
}

}  // namespace faultline::model
