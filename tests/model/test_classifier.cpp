#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "classifier/model/classify_store.hpp"
#include "classifier/model/evaluation.hpp"
#include "classifier/model/issue_classifier.hpp"
#include "classifier/model/label_threshold.hpp"
#include "classifier/model/stop_words.hpp"
#include "classifier/model/text_features.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/issue_url.hpp"
#include "common/text_file.hpp"
#include "datasets/store/audit_store.hpp"
#include "datasets/store/database.hpp"
#include "datasets/store/funnel_store.hpp"
#include "datasets/store/issue_store.hpp"
#include "datasets/store/label_store.hpp"
#include "datasets/store/prediction_store.hpp"
#include "taxonomy/taxonomy.hpp"
#include "tests/file_size_limit.hpp"
#include "tests/model/mixed_corpus.hpp"
#include "tests/temp_dir.hpp"

using namespace faultline::model;
using faultline::datasets::IssueRecord;

namespace {

// A tiny corpus whose three classes share no words and each trip their own rules:
// hang/concurrency_error, crash/improper_memory_access, build_failure/build_misconfiguration.
std::vector<LabeledIssue> tiny_corpus() {
  std::vector<LabeledIssue> out;
  const char* texts[3][2] = {
      {"Training hangs forever in allreduce",
       "a deadlock between producer warps; the barrier never completes"},
      {"Kernel dies with out-of-bounds reads", "an illegal memory access from misaligned vector loads"},
      {"Cannot build from source", "setup.py lacks the gencode flag; nvcc fatal error during compilation"}};
  const char* labels[3][2] = {{"hang", "concurrency_error"},
                              {"crash", "improper_memory_access"},
                              {"build_failure", "build_misconfiguration"}};
  for (int c = 0; c < 3; ++c) {
    for (int i = 0; i < 10; ++i) {
      IssueRecord r;
      r.repo = "a/b";
      r.number = c * 10 + i + 1;
      r.url = faultline::common::issue_url(r.repo, r.number);
      r.state = "closed";
      r.title = texts[c][0];
      r.body = std::string(texts[c][1]) + " (case " + std::to_string(i) + ")";
      out.push_back({r, labels[c][0], labels[c][1]});
    }
  }
  return out;
}

AxisTraining quick() {
  AxisTraining t = AxisTraining::standard();
  t.grid.resize(1);
  return t;
}

// The tiny corpus's three root causes.
bool in_tiny_corpus(const std::string& root_cause) {
  return root_cause == "concurrency_error" || root_cause == "improper_memory_access" ||
         root_cause == "build_misconfiguration";
}

// What the search is to hold of the taxonomy after the tiny corpus's issues, as documents: for each of its
// root causes in the taxonomy's order, the name with the definition, then the name with each typical case.
std::vector<ClassDescription> tiny_corpus_searched_texts(const RuleSet& rules) {
  std::vector<ClassDescription> out;
  auto document = [&](const std::string& title, const std::string& body) {
    IssueRecord r;
    r.title = title;
    r.body = body;
    return extract_features(rules, r).document;
  };
  for (const auto& category : faultline::taxonomy::Taxonomy::builtin().root_causes()) {
    if (!in_tiny_corpus(category.id)) continue;
    out.push_back({category.id, document(category.name, category.definition)});
    for (const auto& typical : category.includes)
      out.push_back({category.id, document(category.name, typical)});
  }
  return out;
}

// Writes `changed` over the model file at `path` and loads the model directory `models`: the error, or
// "(loaded)".
std::string load_error_with(const std::string& models, const std::string& path,
                            const nlohmann::json& changed) {
  std::ofstream(path) << changed.dump();
  try {
    IssueClassifier::load(models);
  } catch (const faultline::Error& e) {
    return e.what();
  }
  return "(loaded)";
}

}  // namespace

TEST(Evaluation, FoldsRunInParallelGiveTheSequentialResult) {
  // Relabel every fifth issue so the corpus is no longer separable and predictions differ between folds;
  // the sequential run is the reference.
  auto corpus = tiny_corpus();
  for (size_t i = 0; i < corpus.size(); i += 5) corpus[i].symptom = corpus[(i + 10) % corpus.size()].symptom;
  auto sequential = evaluate(corpus, 5, 3, quick(), 1);
  auto parallel = evaluate(corpus, 5, 3, quick(), 3);
  EXPECT_LT(sequential.symptom.combined.accuracy, 1.0);
  EXPECT_EQ(parallel.symptom.combined.confusion, sequential.symptom.combined.confusion);
  EXPECT_EQ(parallel.root_cause.combined.confusion, sequential.root_cause.combined.confusion);
  EXPECT_DOUBLE_EQ(parallel.symptom.combined.expected_calibration_error,
                   sequential.symptom.combined.expected_calibration_error);
  EXPECT_EQ(parallel.symptom.fasttext.confusion, sequential.symptom.fasttext.confusion);
}

TEST(Evaluation, TinySeparableCorpusScoresPerfectlyAndBaselinesAsWorkedOut) {
  auto e = evaluate(tiny_corpus(), 5, 3, quick());
  EXPECT_EQ(e.n, 30);
  EXPECT_DOUBLE_EQ(e.symptom.combined.accuracy, 1.0);
  EXPECT_DOUBLE_EQ(e.symptom.combined.macro_f1, 1.0);
  EXPECT_DOUBLE_EQ(e.root_cause.combined.kappa, 1.0);
  EXPECT_DOUBLE_EQ(e.symptom.rules.accuracy, 1.0);
  // Stratified folds leave 8 of each class in every training set: the majority is a three-way tie, broken
  // alphabetically → always "build_failure". Accuracy 10/30; F1(build_failure) = 2·10/(2·10 + 20) = .5 and
  // 0 for the others → macro-F1 = 1/6; the predictions are constant → kappa 0.
  EXPECT_NEAR(e.symptom.majority.accuracy, 1.0 / 3.0, 1e-12);
  EXPECT_NEAR(e.symptom.majority.macro_f1, 1.0 / 6.0, 1e-12);
  EXPECT_NEAR(e.symptom.majority.kappa, 0.0, 1e-12);
}

TEST(Evaluation, ProgressReportsEveryFoldAndEndsAtTheFinalAccuracy) {
  // Every fifth symptom relabeled (as above), so the running accuracy is not trivially 1.
  auto corpus = tiny_corpus();
  for (size_t i = 0; i < corpus.size(); i += 5) corpus[i].symptom = corpus[(i + 10) % corpus.size()].symptom;
  std::vector<FoldReport> reports;
  auto e = evaluate(corpus, 5, 3, quick(), 2, [&](const FoldReport& r) { reports.push_back(r); });
  ASSERT_EQ(reports.size(), 5u);
  for (int k = 0; k < 5; ++k) {
    EXPECT_EQ(reports[k].done, k + 1);
    EXPECT_EQ(reports[k].folds, 5);
  }
  // Stratified folds of 30 issues over 3 root causes hold out 6 each: 6, 12, …, 30.
  EXPECT_EQ(reports[0].held_out, 6);
  EXPECT_EQ(reports.back().held_out, 30);
  EXPECT_LT(reports.back().symptom_accuracy, 1.0);
  EXPECT_DOUBLE_EQ(reports.back().symptom_accuracy, e.symptom.combined.accuracy);
  EXPECT_DOUBLE_EQ(reports.back().root_cause_accuracy, e.root_cause.combined.accuracy);
}

TEST(Classifier, TrainingReportsEachAxisBeforeTrainingIt) {
  std::vector<std::string> seen;
  IssueClassifier::train(tiny_corpus(), {}, quick(), {}, [&](const std::string& axis, int index, int axes) {
    seen.push_back(axis + " " + std::to_string(index) + "/" + std::to_string(axes));
  });
  // No scope decisions: the scope axis is not trained, so two axes.
  EXPECT_EQ(seen, (std::vector<std::string>{"symptom 1/2", "root_cause 2/2"}));
}

TEST(Classifier, AnAxisWithOneClassIsRefusedAndScopeDecisionsOneWayTrainNoScopeModel) {
  // Every issue labeled one root cause: any answer would be right, and its threshold promise 1.0.
  auto corpus = tiny_corpus();
  for (auto& l : corpus) l.root_cause = corpus[0].root_cause;
  for (const std::string verb : {"train", "eval"}) {
    try {
      verb == "train" ? require_two_classes(corpus, verb) : (void)evaluate(corpus, 3, 7, quick());
      ADD_FAILURE() << verb << " took a root cause of one class";
    } catch (const faultline::Error& e) {
      EXPECT_NE(std::string(e.what()).find(verb + ": every final label's root cause is '" +
                                           corpus[0].root_cause + "'"),
                std::string::npos)
          << e.what();
    }
  }
  // Two root causes are enough (the trigger removed), even with one issue of the second: the fold that
  // holds it out trains on one class, and the cross-validation still runs every fold (it stopped at that
  // fold when the model itself refused one class).
  corpus[1].root_cause = tiny_corpus()[29].root_cause;
  ASSERT_NE(corpus[1].root_cause, corpus[0].root_cause);
  EXPECT_NO_THROW(require_two_classes(corpus, "train"));
  EXPECT_EQ(evaluate(corpus, 3, 7, quick()).root_cause.combined.n, 30);
  // Scope decisions all "in", however many: no scope model, so two axes; one "out" among them makes three.
  std::vector<faultline::datasets::IssueRecord> scoped;
  for (const auto& l : tiny_corpus()) {
    scoped.push_back(l.issue);
    scoped.back().scope = "in";
  }
  auto axes_trained = [&] {
    int axes = 0;
    IssueClassifier::train(tiny_corpus(), scoped, quick(), {},
                           [&](const std::string&, int, int n) { axes = n; });
    return axes;
  };
  EXPECT_EQ(axes_trained(), 2);
  scoped[3].scope = "out";
  EXPECT_EQ(axes_trained(), 3);
}

TEST(Classifier, TrainingIsReproducibleAndVersioned) {
  auto a = IssueClassifier::train(tiny_corpus(), {}, quick());
  auto b = IssueClassifier::train(tiny_corpus(), {}, quick());
  EXPECT_EQ(a.version(), b.version());
  EXPECT_EQ(a.version().size(), 16u);
  auto corpus = tiny_corpus();
  corpus[0].symptom = "crash";
  EXPECT_NE(IssueClassifier::train(corpus, {}, quick()).version(), a.version());
  auto p = a.predict(tiny_corpus()[0].issue);
  auto q = b.predict(tiny_corpus()[0].issue);
  EXPECT_EQ(p.symptom, "hang");
  EXPECT_DOUBLE_EQ(p.symptom_p, q.symptom_p);
  EXPECT_NE(std::find(p.rules_fired.begin(), p.rules_fired.end(), "hang_words"), p.rules_fired.end());
}

TEST(Classifier, UnknownLabelInTrainingDataIsAClearError) {
  auto corpus = tiny_corpus();
  corpus[4].root_cause = "gremlins";
  try {
    IssueClassifier::train(corpus, {}, quick());
    FAIL();
  } catch (const faultline::Error& e) {
    EXPECT_STREQ(e.what(), "train: a/b#5 has unknown root cause 'gremlins'");
  }
}

TEST(Classifier, CorruptedOrMissingModelFilesGiveClearErrors) {
  faultline::testing::TempDir dir;
  auto model = IssueClassifier::train(tiny_corpus(), {}, quick());
  std::string models = dir.file("m");
  model.save(models);
  EXPECT_EQ(IssueClassifier::load(models).version(), model.version());

  std::string ftz = models + "/symptom.ftz";
  std::string bytes;
  {
    std::ifstream in(ftz, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  bytes[bytes.size() / 2] ^= 0x5a;  // one flipped byte in the middle
  std::ofstream(ftz, std::ios::binary) << bytes;
  try {
    IssueClassifier::load(models);
    FAIL();
  } catch (const faultline::Error& e) {
    EXPECT_NE(std::string(e.what()).find("symptom.ftz: the model file is damaged"), std::string::npos)
        << e.what();
  }
  std::ofstream(ftz, std::ios::binary) << "garbage";
  EXPECT_THROW(IssueClassifier::load(models), faultline::Error);
  std::filesystem::remove(models + "/model.json");
  try {
    IssueClassifier::load(models);
    FAIL();
  } catch (const faultline::Error& e) {
    EXPECT_NE(std::string(e.what()).find("no trained model here"), std::string::npos);
  }
}

// A model of documents of another form would be shown words it never learned: load refuses it, and one
// saved before the version was recorded too. A version that is not a whole number, or a description that
// is not an object, is damage.
TEST(Classifier, AModelOfAnotherTextFeaturesVersionIsRefused) {
  faultline::testing::TempDir dir;
  std::string models = dir.file("m");
  IssueClassifier::train(tiny_corpus(), {}, quick()).save(models);
  const std::string path = models + "/model.json";
  auto description = nlohmann::json::parse(faultline::common::read_text_file(path));
  ASSERT_EQ(description.at("text_features"), kTextFeaturesVersion);
  EXPECT_NO_THROW(IssueClassifier::load(models));
  auto load_error = [&](const nlohmann::json& changed) { return load_error_with(models, path, changed); };
  auto with = [&](const nlohmann::json& features) {
    auto changed = description;
    changed["text_features"] = features;
    return changed;
  };
  auto without = description;
  without.erase("text_features");
  // 2^32 + 3 would read as 3 if it were cut to 32 bits.
  for (const auto& [changed, expected] : std::vector<std::pair<nlohmann::json, std::string>>{
           {with(kTextFeaturesVersion + 1),
            "documents of another form (text features " + std::to_string(kTextFeaturesVersion + 1) + ","},
           {with(int64_t{4294967296} + kTextFeaturesVersion),
            "documents of another form (text features " + std::to_string(4294967296 + kTextFeaturesVersion) +
                ","},
           {without, "documents of another form (text features none recorded,"},
           {with("3"), "damaged model description (text_features is not a whole number)"},
           {with(3.5), "damaged model description (text_features is not a whole number)"},
           {nlohmann::json::array(), "damaged model description (not a JSON object)"}}) {
    const std::string error = load_error(changed);
    EXPECT_NE(error.find(expected), std::string::npos) << changed.dump() << ": " << error;
    EXPECT_NE(error.find("retrain with 'faultline train'"), std::string::npos) << error;
  }
  std::ofstream(path) << description.dump();
  EXPECT_NO_THROW(IssueClassifier::load(models));
}

// A saved temperature divided every class's score before it tempered the winner's odds alone (combine):
// an axis saved without the field that says so, or with a temperature under 1, is refused.
TEST(Classifier, AnAxisCalibratedAnotherWayIsRefused) {
  faultline::testing::TempDir dir;
  std::string models = dir.file("m");
  IssueClassifier::train(tiny_corpus(), {}, quick()).save(models);
  const std::string path = models + "/root_cause.json";
  const auto saved = nlohmann::json::parse(faultline::common::read_text_file(path));
  ASSERT_EQ(saved.at("calibration"), "winner_odds");
  auto load_error = [&](const nlohmann::json& changed) { return load_error_with(models, path, changed); };
  auto without = saved;
  without.erase("calibration");
  EXPECT_NE(load_error(without).find("calibrated over every class by an older faultline; retrain"),
            std::string::npos)
      << load_error(without);
  auto cooler = saved;
  cooler["temperature"] = 0.5;
  EXPECT_NE(load_error(cooler).find("inconsistent model description; retrain"), std::string::npos);
  EXPECT_EQ(load_error(saved), "(loaded)");
}

// The tiny corpus's bodies end in "(case N)", so "<num>" is in every document: the symptom's fastText
// model learns it, the root cause's models (the causes and their dimensions) do not.
TEST(Classifier, TheRootCauseModelsLearnWithoutTheNumberToken) {
  AxisTraining grouped = quick();
  grouped.group_weights = {2.0};  // the dimension model is kept, whatever the inner cross-validation prefers
  auto model = IssueClassifier::train(tiny_corpus(), {}, grouped);
  auto has = [](const std::vector<std::string>& vocabulary, const std::string& word) {
    return std::find(vocabulary.begin(), vocabulary.end(), word) != vocabulary.end();
  };
  EXPECT_TRUE(has(model.symptom_model().fasttext_vocabulary(), "<num>"));
  EXPECT_TRUE(has(model.symptom_model().fasttext_vocabulary(), "case"));
  EXPECT_FALSE(has(model.root_cause_model().fasttext_vocabulary(), "<num>"));
  EXPECT_TRUE(has(model.root_cause_model().fasttext_vocabulary(), "case"));
  EXPECT_FALSE(has(model.root_cause_model().group_vocabulary(), "<num>"));
  EXPECT_TRUE(has(model.root_cause_model().group_vocabulary(), "case"));
}

// The root cause's fastText model also learns from the taxonomy's description of each root cause it has
// labeled issues of; the symptom's does not.
TEST(Classifier, TheRootCauseLearnsFromTheTaxonomysDescriptionsOfItsLabeledCauses) {
  AxisTraining grouped = quick();
  grouped.group_weights = {2.0};  // the dimension model is kept, whatever the inner cross-validation prefers
  auto model = IssueClassifier::train(tiny_corpus(), {}, grouped);
  const nlohmann::json causes = model.root_cause_model().describe();
  EXPECT_EQ(causes.at("fasttext_described_classes"),
            nlohmann::json({"improper_memory_access", "concurrency_error", "build_misconfiguration"}));
  EXPECT_EQ(causes.at("fasttext_description_copies"), 6);
  EXPECT_EQ(model.symptom_model().describe().at("fasttext_described_classes"), nlohmann::json::array());
  // "arriv" (arrival, arrivals, stemmed as issue text is) is in concurrency_error's description and in no
  // issue of the tiny corpus: only the root cause's model of the causes knows it, not its dimension model.
  auto has = [](const std::vector<std::string>& vocabulary, const std::string& word) {
    return std::find(vocabulary.begin(), vocabulary.end(), word) != vocabulary.end();
  };
  EXPECT_TRUE(has(model.root_cause_model().fasttext_vocabulary(), "arriv"));
  EXPECT_FALSE(has(model.root_cause_model().group_vocabulary(), "arriv"));
  EXPECT_FALSE(model.root_cause_model().group_vocabulary().empty());
  EXPECT_FALSE(has(model.symptom_model().fasttext_vocabulary(), "arriv"));
}

// What the root cause says of an issue does not depend on its <num> tokens: its fastText models never
// learned the token, and the neighbour search leaves it out as a term of every document. The symptom's
// model knows it (above), so only the root cause is compared.
TEST(Classifier, TheRootCauseSaysTheSameOfADocumentWithAndWithoutItsNumbers) {
  auto model = IssueClassifier::train(tiny_corpus(), {}, quick());
  IssueRecord issue;
  issue.repo = "a/b";
  issue.title = "Kernel dies at step 12 with 4 warps";
  issue.body = "an illegal memory access after 300 iterations, 2 of 8 GPUs";
  IssueFeatures with = extract_features(model.rules(), issue);
  ASSERT_NE(with.document.find("<num>"), std::string::npos);
  IssueFeatures without = with;
  without.document = fasttext_document(with.document, {}, {.without_numbers = true});
  without.tokens = tokenize(without.document);
  without.discussion_again = {};  // the issue has no discussion
  EXPECT_EQ(model.analyse(with).root_cause, model.analyse(without).root_cause);
}

TEST(AxisModel, TheFastTextDocumentLeavesOutWhatTheReadingSaysAndNothingElse) {
  const std::string numbers = "__repo_o/r cuda <num> fail at <hex> in <path> <num>";
  EXPECT_EQ(fasttext_document(numbers, {}, {.without_numbers = true}),
            "__repo_o/r cuda fail at <hex> in <path>");
  EXPECT_EQ(fasttext_document(numbers, {}, {}), numbers);
  EXPECT_EQ(fasttext_document("<num> <num>", {}, {.without_numbers = true}), "");
  EXPECT_EQ(fasttext_document("<numx> x<num> <num>", {}, {.without_numbers = true}), "<numx> x<num>");
  EXPECT_EQ(fasttext_document("", {}, {.without_numbers = true}), "");
  // The report "kernel hang", the discussion "fix lock" read twice (tokens 3 and 4 the first time, 5 and 6
  // the second), a rule token.
  const std::string twice = "__repo_o/r kernel hang fix lock fix lock __rule_x";
  const TokenSpan again{5, 7};
  EXPECT_EQ(fasttext_document(twice, again, {.discussion_once = true}),
            "__repo_o/r kernel hang fix lock __rule_x");
  EXPECT_EQ(fasttext_document(twice, again, {}), twice);
  // Both at once, positions counted on the whole document: a0 <num>1 b2 <num>3 c4, the span 3..4.
  EXPECT_EQ(
      fasttext_document("a <num> b <num> c", {3, 5}, {.without_numbers = true, .discussion_once = true}),
      "a b");
  // Positions are tokenize()'s: a run of spaces (an empty report leaves one after the repository) is no
  // token.
  EXPECT_EQ(fasttext_document("a  b c", {1, 2}, {.discussion_once = true}), "a c");
}

TEST(Classifier, LearningWithoutNumbersOrStopWordsRefusesWordNGrams) {
  std::vector<AxisExample> examples;
  for (const auto& l : tiny_corpus()) examples.push_back({l.issue.title + " <num>", {}, {}, l.root_cause});
  for (const FastTextReading reading :
       {FastTextReading{.without_numbers = true}, FastTextReading{.without_stop_words = true}}) {
    AxisTraining training = quick();
    training.fasttext_reading = reading;
    training.grid[0].word_ngrams = 2;
    EXPECT_THROW(AxisModel::train("root_cause", examples, training), faultline::Error);
    training.grid[0].word_ngrams = 1;
    EXPECT_NO_THROW(AxisModel::train("root_cause", examples, training));
  }
  AxisTraining neither = quick();
  neither.grid[0].word_ngrams = 2;
  EXPECT_NO_THROW(AxisModel::train("root_cause", examples, neither));
}

TEST(Classifier, AFailedSaveLeavesThePreviousModelWholeAndUsable) {
  faultline::testing::TempDir dir;
  std::string models = dir.file("m");
  auto previous = IssueClassifier::train(tiny_corpus(), {}, quick());
  previous.save(models);
  auto corpus = tiny_corpus();
  corpus[0].symptom = "crash";
  auto newer = IssueClassifier::train(corpus, {}, quick());
  ASSERT_NE(newer.version(), previous.version());
  std::string message;
  {
    faultline::testing::FileSizeLimit disk_full(1024);  // the .ftz files are larger than this
    try {
      newer.save(models);
    } catch (const faultline::Error& e) {
      message = e.what();
    }
  }
  EXPECT_NE(message.find(": cannot write the file"), std::string::npos) << message;
  EXPECT_EQ(IssueClassifier::load(models).version(), previous.version());
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), {}), 1);  // no half model left
  newer.save(models);  // with room, the same save succeeds and replaces the model
  EXPECT_EQ(IssueClassifier::load(models).version(), newer.version());
}

// The train command's path: the store's final labels all of one root cause are refused before a model is
// fitted or saved; with one of them changed the same store trains (the trigger removed).
TEST(Classifier, TrainingFromAStoreWhoseLabelsHaveOneRootCauseIsRefused) {
  faultline::testing::TempDir dir;
  faultline::datasets::Database db(dir.file("c.db"));
  const auto corpus = tiny_corpus();
  std::vector<faultline::datasets::FinalLabel> finals;
  for (const auto& l : corpus) {
    faultline::datasets::upsert_issue(db, l.issue);
    finals.push_back({*faultline::datasets::find_issue(db, l.issue.repo, l.issue.number), l.symptom,
                      corpus[0].root_cause, "agreed", "x,y"});
  }
  auto label = [&] {
    db.transaction([&] {
      faultline::datasets::replace_final_labels(
          db, finals, faultline::datasets::record_audit(db, "x,y", 30, 1.0, 0.8, "pass"));
    });
  };
  label();
  try {
    train_from_store(db, dir.file("m"), {});
    ADD_FAILURE() << "trained on one root cause";
  } catch (const faultline::Error& e) {
    EXPECT_NE(std::string(e.what()).find("train: every final label's root cause is"), std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(dir.file("m")));
  finals[29].root_cause = corpus[29].root_cause;
  ASSERT_NE(finals[29].root_cause, corpus[0].root_cause);
  label();
  EXPECT_EQ(train_from_store(db, dir.file("m"), {}).labeled, 30);
}

namespace {

// The tiny corpus stored, each issue with its label final after a passing audit.
void store_tiny_corpus_as_final(faultline::datasets::Database& db, const std::vector<LabeledIssue>& corpus) {
  std::vector<faultline::datasets::FinalLabel> finals;
  for (const auto& l : corpus) {
    faultline::datasets::upsert_issue(db, l.issue);
    finals.push_back({*faultline::datasets::find_issue(db, l.issue.repo, l.issue.number), l.symptom,
                      l.root_cause, "agreed", "x,y"});
  }
  db.transaction([&] {
    faultline::datasets::replace_final_labels(
        db, finals, faultline::datasets::record_audit(db, "x,y", 30, 1.0, 0.8, "pass"));
  });
}

// Records a person's scope decision, "in" or "out", on a stored issue.
void decide_scope(faultline::datasets::Database& db, faultline::datasets::IssueRecord issue,
                  const std::string& scope) {
  issue.scope = scope;
  issue.scope_reason = "a person's decision";
  faultline::datasets::upsert_issue(db, issue);
}

}  // namespace

// An issue a person put out of scope after its raters agreed keeps its final label in the store, but it is no
// case of the study: training and the cross-validation leave it out and train counts it apart. With the
// decision taken back (scope "in") the same label is trained on again.
TEST(Classifier, FinalLabelsOfIssuesPutOutOfScopeAreNotTrainedOn) {
  faultline::testing::TempDir dir;
  faultline::datasets::Database db(dir.file("c.db"));
  const auto corpus = tiny_corpus();
  store_tiny_corpus_as_final(db, corpus);
  auto holds_issue_3 = [&] {
    auto labeled = load_labeled_issues(db).cases;
    return std::any_of(labeled.begin(), labeled.end(),
                       [&](const LabeledIssue& l) { return l.issue.key() == corpus[3].issue.key(); });
  };
  decide_scope(db, corpus[3].issue, "out");
  EXPECT_EQ(load_labeled_issues(db).cases.size(), 29u);
  EXPECT_EQ(load_labeled_issues(db).out_of_scope, 1);
  EXPECT_FALSE(holds_issue_3());
  auto out = train_from_store(db, dir.file("m"), {});
  EXPECT_EQ(out.labeled, 29);
  EXPECT_EQ(out.labeled_out_of_scope, 1);
  EXPECT_EQ(faultline::datasets::load_final_labels(db).size(), 30u);  // the label itself is kept
  decide_scope(db, corpus[3].issue, "in");
  EXPECT_TRUE(holds_issue_3());
  auto in = train_from_store(db, dir.file("m"), {});
  EXPECT_EQ(in.labeled, 30);
  EXPECT_EQ(in.labeled_out_of_scope, 0);
}

// A refusal for too few cases says how many final labels were left out as out of scope: the store holds
// labels of other root causes, or labels at all, which the bare message would deny.
TEST(Classifier, ARefusalToTrainCountsTheLabelsLeftOutOfScope) {
  faultline::testing::TempDir dir;
  faultline::datasets::Database db(dir.file("c.db"));
  const auto corpus = tiny_corpus();
  store_tiny_corpus_as_final(db, corpus);
  // Every issue of another root cause than the first's put out of scope: one class is left.
  int other = 0;
  for (const auto& l : corpus) {
    if (l.root_cause == corpus[0].root_cause) continue;
    decide_scope(db, l.issue, "out");
    ++other;
  }
  ASSERT_GT(other, 0);
  auto refusal = [&] {
    try {
      train_from_store(db, dir.file("m"), {});
    } catch (const faultline::Error& e) {
      return std::string(e.what());
    }
    return std::string("trained");
  };
  std::string message = refusal();
  // (In the tiny corpus a root cause has one symptom, which is checked first.)
  EXPECT_NE(message.find("train: every final label's symptom is '" + corpus[0].symptom + "'"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("(" + std::to_string(other) +
                         " final labels of issues a person put out of scope left out)"),
            std::string::npos)
      << message;
  // Every issue out of scope: no case at all, and the message says the labels are there.
  for (const auto& l : corpus) decide_scope(db, l.issue, "out");
  message = refusal();
  EXPECT_NE(
      message.find("train: no final label of an issue in scope to learn from (30 final labels of issues "
                   "a person put out of scope left out)"),
      std::string::npos)
      << message;
}

TEST(Classifier, ClassifyNeverOverwritesAManualLabel) {
  faultline::testing::TempDir dir;
  faultline::datasets::Database db(dir.file("c.db"));
  auto corpus = tiny_corpus();
  for (const auto& l : corpus) faultline::datasets::upsert_issue(db, l.issue);
  // Issue 1 reads like a hang but carries a manual label that says otherwise.
  int64_t one = *faultline::datasets::find_issue(db, "a/b", 1);
  db.transaction([&] {
    int64_t audit = faultline::datasets::record_audit(db, "x,y", 1, 1.0, 0.8, "pass");
    faultline::datasets::replace_final_labels(db, {{one, "crash", "api_misuse", "agreed", "x,y"}}, audit);
  });
  auto model = IssueClassifier::train(corpus, {}, quick());
  model.save(dir.file("m"));
  auto summary = classify_store(db, dir.file("m"));
  EXPECT_EQ(summary.classified, 30);
  EXPECT_EQ(summary.queue.manual, 1);
  auto finals = faultline::datasets::load_final_labels(db);
  EXPECT_EQ(finals[one].symptom, "crash");
  EXPECT_EQ(finals[one].root_cause, "api_misuse");
  auto predictions = faultline::datasets::load_predictions(db);
  EXPECT_EQ(predictions[one].symptom, "hang");  // the prediction is kept beside it, not instead of it
  EXPECT_EQ(predictions[one].model_version, model.version());
}

TEST(Classifier, ClassifyQueuesTheAbstentionsNoPersonDecidedAndStoresEachAxissThreshold) {
  faultline::testing::TempDir dir;
  faultline::datasets::Database db(dir.file("c.db"));
  auto corpus = tiny_corpus();
  // Issues 2 and 3 a person put out of scope; issue 1 has a manual label.
  for (int n : {1, 2}) corpus[n].issue.scope = "out";
  for (const auto& l : corpus) faultline::datasets::upsert_issue(db, l.issue);
  int64_t one = *faultline::datasets::find_issue(db, "a/b", corpus[0].issue.number);
  db.transaction([&] {
    int64_t audit = faultline::datasets::record_audit(db, "x,y", 1, 1.0, 0.8, "pass");
    faultline::datasets::replace_final_labels(db, {{one, "crash", "api_misuse", "agreed", "x,y"}}, audit);
  });
  // Screening made every issue a candidate but issue 4 (its 30th is not screened at all).
  std::vector<faultline::datasets::ScreeningDecision> screening;
  for (size_t i = 0; i + 1 < corpus.size(); ++i) {
    screening.push_back({*faultline::datasets::find_issue(db, "a/b", corpus[i].issue.number),
                         i == 3 ? "excluded" : "candidate", "title:x"});
  }
  faultline::datasets::replace_screening(db, screening);
  // Labeling from a probability of 1, the model abstains on every issue whose probabilities are under 1:
  // of the 30, one keeps its manual label, two are out of scope and one excluded by screening (3 left out),
  // one not screened (waiting), and 25 are queued: what the queue of the store counts too.
  LabelPolicy sure_of_nothing;
  sure_of_nothing.abstain_below = 1.0;
  IssueClassifier::train(corpus, {}, quick(), sure_of_nothing).save(dir.file("m"));
  auto summary = classify_store(db, dir.file("m"));
  EXPECT_EQ(summary.queue.manual, 1);
  EXPECT_EQ(summary.queue.abstained_excluded, 3);
  EXPECT_EQ(summary.queue.abstained_unscreened, 1);
  EXPECT_EQ(summary.queue.queued, 25);
  auto queue = faultline::annotation::uncertain_queue(db);
  EXPECT_EQ(queue.issue_ids.size(), 25u);
  EXPECT_EQ(queue.counts.queued, 25);
  EXPECT_EQ(queue.counts.abstained_excluded, 3);
  EXPECT_EQ(queue.counts.abstained_unscreened, 1);
  EXPECT_EQ(queue.counts.manual, 1);
  // Each prediction keeps the threshold of its own axis (chosen for 0.95 and 0.7 here, so they differ).
  LabelPolicy accuracies;
  accuracies.root_cause_accuracy = 0.7;
  auto model = IssueClassifier::train(corpus, {}, quick(), accuracies);
  model.save(dir.file("m2"));
  classify_store(db, dir.file("m2"));
  ASSERT_NE(model.symptom_model().label_threshold(), model.root_cause_model().label_threshold());
  for (const auto& [id, p] : faultline::datasets::load_predictions(db)) {
    EXPECT_EQ(p.symptom_threshold, model.symptom_model().label_threshold());
    EXPECT_EQ(p.root_cause_threshold, model.root_cause_model().label_threshold());
  }
}

TEST(Classifier, ClassifyingInBatchesGivesWhatTheModelSaysOfEachStoredIssue) {
  // The second computation: every issue loaded at once (with its comments as discussion, as the classifier
  // reads them) and predicted one by one; classify_store reads 4 issues at a time, so 30 issues span 8
  // batches, and one mined issue takes its discussion from comments.
  faultline::testing::TempDir dir;
  faultline::datasets::Database db(dir.file("c.db"));
  auto corpus = tiny_corpus();
  for (const auto& l : corpus) faultline::datasets::upsert_issue(db, l.issue);
  faultline::datasets::upsert_comment(
      db, {1, "a/b", 7, "u", "2024-01-01", "2024-01-01", "a deadlock between producer warps", std::nullopt});
  auto model = IssueClassifier::train(corpus, {}, quick());
  model.save(dir.file("m"));
  EXPECT_EQ(classify_store(db, dir.file("m"), 4).classified, 30);
  auto stored = faultline::datasets::load_predictions(db);
  auto issues = faultline::datasets::load_issues(db);
  faultline::datasets::attach_comment_discussions(db, issues);
  ASSERT_EQ(stored.size(), issues.size());
  for (const auto& issue : issues) {
    auto expected = model.predict(issue);
    const auto& got = stored.at(issue.id);
    EXPECT_EQ(got.symptom, expected.symptom) << issue.key();
    EXPECT_EQ(got.root_cause, expected.root_cause) << issue.key();
    EXPECT_NEAR(got.symptom_p, expected.symptom_p, 1e-9) << issue.key();
    EXPECT_NEAR(got.root_cause_p, expected.root_cause_p, 1e-9) << issue.key();
    EXPECT_NEAR(got.scope_p, expected.scope_p, 1e-9) << issue.key();
  }
}

TEST(Classifier, TheModelDoesNotDependOnTheNumberOfTrainingThreads) {
  // Relabel a few issues so that the cross-validation has choices to make.
  auto corpus = tiny_corpus();
  for (size_t i = 0; i < corpus.size(); i += 7)
    corpus[i].root_cause = corpus[(i + 10) % corpus.size()].root_cause;
  faultline::testing::TempDir dir;
  for (int jobs : {1, 3}) {
    AxisTraining t = quick();
    t.jobs = jobs;
    IssueClassifier::train(corpus, {}, t).save(dir.file("jobs" + std::to_string(jobs)));
  }
  // Every file of the model (the group model's too, where training kept one), byte for byte.
  auto files = [&](const std::string& d) {
    std::set<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir.file(d)))
      names.insert(entry.path().filename().string());
    return names;
  };
  ASSERT_EQ(files("jobs1"), files("jobs3"));
  EXPECT_GE(files("jobs1").size(), 6u);  // model.json, documents.json, and each axis's .json and .ftz
  for (const auto& file : files("jobs1")) {
    auto read = [&](const std::string& d) {
      std::ifstream in(dir.file(d) + "/" + file, std::ios::binary);
      return std::string(std::istreambuf_iterator<char>(in), {});
    };
    EXPECT_FALSE(read("jobs1").empty()) << file;
    EXPECT_EQ(read("jobs1"), read("jobs3")) << file;
  }
}

TEST(Classifier, ALabeledIssueIsItsOwnNearestNeighbour) {
  // Issues of a class differ only in their case number, which normalisation masks: one word makes issue 4
  // unlike the others of its class.
  auto corpus = tiny_corpus();
  corpus[4].issue.body += " sporadically";
  auto model = IssueClassifier::train(corpus, {}, quick());
  auto a = model.analyse(extract_features(model.rules(), corpus[4].issue));
  for (const auto* neighbours : {&a.symptom_neighbours, &a.root_cause_neighbours}) {
    ASSERT_FALSE(neighbours->empty());
    EXPECT_EQ((*neighbours)[0].item, 4u);  // documents are kept in training order
    EXPECT_NEAR((*neighbours)[0].similarity, 1.0, 1e-9);
    // The neighbours of a hang issue are hang issues (items 0–9): the classes share no words.
    for (const auto& n : *neighbours) EXPECT_LT(n.item, 10u);
  }
}

TEST(Classifier, TheSymptomsVoteCountsATermOnceTheRootCausesDamped) {
  // The reference is an index built apart from the training documents, in training order; each axis's
  // neighbours must be its search with the counting its model records. One issue repeats a word many
  // times, so the two countings rank its neighbours differently and the comparison can tell them apart.
  // Each class's own words are in a third of the issues, more than the share the search keeps: a word of
  // one of seven groups and one of five across the classes give it terms, and one issue repeats its first
  // word thirty times.
  auto corpus = tiny_corpus();
  for (size_t i = 0; i < corpus.size(); ++i) {
    corpus[i].issue.body += std::string(" quokka") + char('a' + i % 7) + " wombat" + char('a' + i % 5);
  }
  for (int i = 0; i < 30; ++i) corpus[12].issue.body += " quokkaf";
  AxisTraining voting = quick();
  voting.neighbour_weights = {1.0};  // the vote counts in every prediction
  auto model = IssueClassifier::train(corpus, {}, voting);
  ASSERT_EQ(model.symptom_model().describe().at("neighbour_term_counts"), "once");
  ASSERT_EQ(model.root_cause_model().describe().at("neighbour_term_counts"), "damped");
  std::vector<Tokens> documents;
  for (const auto& l : corpus)
    documents.push_back(tokenize(extract_features(model.rules(), l.issue).document));
  // After the issues the search holds the taxonomy's texts of the three labeled root causes (four each);
  // the symptom's vote finds issues only.
  for (const auto& d : tiny_corpus_searched_texts(model.rules())) documents.push_back(tokenize(d.document));
  ASSERT_EQ(documents.size(), corpus.size() + 12);
  const TfidfIndex reference(documents, AxisTraining::standard().neighbour_max_document_share);
  const size_t k = AxisTraining::standard().neighbours;
  auto same = [](const std::vector<Neighbour>& x, const std::vector<Neighbour>& y) {
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i) {
      if (x[i].item != y[i].item || std::abs(x[i].similarity - y[i].similarity) > 1e-12) return false;
    }
    return true;
  };
  size_t differing = 0;
  for (const auto& l : corpus) {
    const IssueFeatures f = extract_features(model.rules(), l.issue);
    const IssueAnalysis a = model.analyse(f);
    const auto once = reference.nearest(f.tokens, k, TermCounts::kOnce, corpus.size());
    const auto damped = reference.nearest(f.tokens, k, TermCounts::kDamped);
    EXPECT_TRUE(same(a.symptom_neighbours, once)) << l.issue.key();
    EXPECT_TRUE(same(a.root_cause_neighbours, damped)) << l.issue.key();
    differing += !same(once, damped);
    // And each axis's prediction is its model's with those neighbours.
    const auto symptom =
        model.symptom_model().predict(f.tokens, {.rule_scores = &f.symptom_rules,
                                                 .discussion_rule_scores = &f.symptom_discussion_rules,
                                                 .neighbours = &once,
                                                 .discussion_again = f.discussion_again});
    const auto cause =
        model.root_cause_model().predict(f.tokens, {.rule_scores = &f.root_cause_rules,
                                                    .discussion_rule_scores = &f.root_cause_discussion_rules,
                                                    .neighbours = &damped,
                                                    .discussion_again = f.discussion_again});
    for (const auto& [label, p] : symptom) EXPECT_NEAR(a.symptom.at(label), p, 1e-12) << label;
    for (const auto& [label, p] : cause) EXPECT_NEAR(a.root_cause.at(label), p, 1e-12) << label;
  }
  EXPECT_GT(differing, 0u);
  // The counting is saved with the model and read back; a model saved before the field counted damped; any
  // other value is refused.
  faultline::testing::TempDir dir;
  const std::string saved = dir.file("m");
  model.save(saved);
  EXPECT_EQ(AxisModel::load(saved, "symptom").neighbour_term_counts(), TermCounts::kOnce);
  EXPECT_EQ(AxisModel::load(saved, "root_cause").neighbour_term_counts(), TermCounts::kDamped);
  nlohmann::json older = nlohmann::json::parse(faultline::common::read_text_file(saved + "/symptom.json"));
  older.erase("neighbour_term_counts");
  faultline::common::write_file_atomically(saved + "/symptom.json", older.dump());
  EXPECT_EQ(AxisModel::load(saved, "symptom").neighbour_term_counts(), TermCounts::kDamped);
  // A whole model saved so (both axes damped) finds both axes' neighbours damped, the symptom's among the
  // issues alone.
  const IssueClassifier loaded = IssueClassifier::load(saved);
  const IssueFeatures f12 = extract_features(loaded.rules(), corpus[12].issue);
  const IssueAnalysis a12 = loaded.analyse(f12);
  const auto damped12 = reference.nearest(f12.tokens, k, TermCounts::kDamped, corpus.size());
  ASSERT_FALSE(same(damped12, reference.nearest(f12.tokens, k, TermCounts::kOnce,
                                                corpus.size())));  // issue 12 tells them apart
  EXPECT_TRUE(same(a12.symptom_neighbours, damped12));
  EXPECT_TRUE(same(a12.root_cause_neighbours, reference.nearest(f12.tokens, k, TermCounts::kDamped)));
  older["neighbour_term_counts"] = "sometimes";
  faultline::common::write_file_atomically(saved + "/symptom.json", older.dump());
  EXPECT_THROW(AxisModel::load(saved, "symptom"), faultline::Error);
}

TEST(Classifier, TheRootCausesVoteFindsTheTaxonomysDescriptionsTheSymptomsPassesOverThem) {
  // A text that is one of the taxonomy's texts of a labeled cause (build misconfiguration's first typical
  // case) with one more word has that text for its nearest item in the root cause's search, past the 30
  // issues (the three labeled causes' definitions and typical cases follow them in the taxonomy's order).
  // The word is in five of the issues (each class's own words are in more documents than the search
  // keeps), so the symptom's search, which passes over the taxonomy's texts, finds those.
  auto corpus = tiny_corpus();
  for (size_t i = 0; i < corpus.size(); ++i)
    corpus[i].issue.body += std::string(" quokka") + char('a' + i % 7);
  AxisTraining voting = quick();
  voting.neighbour_weights = {1.0};
  const auto model = IssueClassifier::train(corpus, {}, voting);
  const std::vector<ClassDescription> searched = tiny_corpus_searched_texts(model.rules());
  ASSERT_EQ(searched.size(), 12u);
  const size_t build = static_cast<size_t>(std::find_if(searched.begin(), searched.end(),
                                                        [](const ClassDescription& d) {
                                                          return d.label == "build_misconfiguration";
                                                        }) -
                                           searched.begin()) +
                       1;  // its first typical case, after its definition
  ASSERT_EQ(searched[build].label, "build_misconfiguration");
  IssueFeatures f;
  f.document = searched[build].document + " quokkaa";
  f.tokens = tokenize(f.document);
  auto nearest_is_the_description = [&](const IssueClassifier& m) {
    const IssueAnalysis a = m.analyse(f);
    EXPECT_EQ(a.symptom_neighbours.size(), 5u);  // issues 0, 7, 14, 21, 28
    for (const auto& n : a.symptom_neighbours) EXPECT_EQ(n.item % 7, 0u);
    return !a.root_cause_neighbours.empty() && a.root_cause_neighbours[0].item == corpus.size() + build;
  };
  EXPECT_TRUE(nearest_is_the_description(model));
  // Saved and loaded, the search holds the same descriptions and the vote weighs them as before.
  faultline::testing::TempDir dir;
  const std::string saved = dir.file("m");
  model.save(saved);
  const IssueClassifier loaded = IssueClassifier::load(saved);
  EXPECT_TRUE(nearest_is_the_description(loaded));
  EXPECT_EQ(loaded.root_cause_model().describe(), model.root_cause_model().describe());
  EXPECT_EQ(loaded.root_cause_model().describe().at("description_neighbour_weight"), 2.0);
  // Saved files that are not the items each vote takes them to be are refused: the descriptions in another
  // order, not an array, one document more than the axes learned from, or no descriptions at all.
  const std::string descriptions = saved + "/searched_descriptions.json";
  const std::string documents = saved + "/documents.json";
  const std::string kept_descriptions = faultline::common::read_text_file(descriptions);
  const std::string kept_documents = faultline::common::read_text_file(documents);
  nlohmann::json reordered = nlohmann::json::parse(kept_descriptions);
  ASSERT_EQ(reordered.size(), 12u);
  std::swap(reordered[0], reordered[11]);  // the first cause's definition, the last cause's last case
  auto refused_with = [&](const std::string& path, const std::string& text) {
    faultline::common::write_file_atomically(path, text);
    bool refused = false;
    try {
      IssueClassifier::load(saved);
    } catch (const faultline::Error&) {
      refused = true;
    }
    faultline::common::write_file_atomically(descriptions, kept_descriptions);
    faultline::common::write_file_atomically(documents, kept_documents);
    return refused;
  };
  EXPECT_TRUE(refused_with(descriptions, reordered.dump()));
  // An object of the twelve in order (read as an array, its values would be the right descriptions).
  nlohmann::json as_object = nlohmann::json::object();
  const nlohmann::json in_order = nlohmann::json::parse(kept_descriptions);
  for (size_t i = 0; i < in_order.size(); ++i) as_object[std::string(1, char('a' + i))] = in_order[i];
  EXPECT_TRUE(refused_with(descriptions, as_object.dump()));
  nlohmann::json more = nlohmann::json::parse(kept_documents);
  more.push_back("one more document");
  EXPECT_TRUE(refused_with(documents, more.dump()));
  EXPECT_FALSE(refused_with(descriptions, kept_descriptions));  // the files as saved load
  std::filesystem::remove(descriptions);
  EXPECT_THROW(IssueClassifier::load(saved), faultline::Error);
  // A model saved before descriptions were searched has neither the file nor the root cause's fields: its
  // search holds the issues alone.
  nlohmann::json older = nlohmann::json::parse(faultline::common::read_text_file(saved + "/root_cause.json"));
  older.erase("description_neighbour_labels");
  older.erase("description_neighbour_weight");
  faultline::common::write_file_atomically(saved + "/root_cause.json", older.dump());
  const IssueClassifier before = IssueClassifier::load(saved);
  EXPECT_FALSE(nearest_is_the_description(before));
  for (const auto& n : before.analyse(f).root_cause_neighbours) EXPECT_LT(n.item, corpus.size());
}

TEST(Evaluation, TheTimeSplitTestsOnTheNewestIssuesOnly) {
  // 30 issues created on days 1–30 (one a day, in corpus order), one undated. The 0.8 quantile of the 29
  // dated ones is the date at index floor(.8·29) = 23 (day 24): 23 older issues train, 6 newer test.
  auto corpus = tiny_corpus();
  std::vector<int> day(corpus.size());
  for (size_t i = 0; i < corpus.size(); ++i) {
    day[i] = static_cast<int>((i * 11) % corpus.size()) + 1;  // a permutation of 1…30, classes mixed in time
    char date[32];
    std::snprintf(date, sizeof date, "2024-01-%02dT00:00:00Z", day[i]);
    corpus[i].issue.created = date;
  }
  size_t undated = 0;
  for (size_t i = 0; i < corpus.size(); ++i) {
    if (day[i] == 30) undated = i;
  }
  corpus[undated].issue.created.clear();
  const auto plan = plan_time_split(corpus, 0.8, quick());
  EXPECT_EQ(plan.cut, "2024-01-24T00:00:00Z");
  EXPECT_EQ(plan.undated, 1);
  EXPECT_EQ(plan.train, 23);
  EXPECT_EQ(plan.test, 6);
  auto split = evaluate_time_split(corpus, plan, quick());
  EXPECT_EQ(split.cut, plan.cut);
  EXPECT_EQ(split.symptom.combined.n, 6);
  // The training part must hold as many issues as the model's inner folds (3): 29 dated issues cut at 0.11
  // give floor(3.19) = 3 before the cut, at 0.1 floor(2.9) = 2.
  EXPECT_EQ(plan_time_split(corpus, 0.11, quick()).train, 3);
  EXPECT_THROW(plan_time_split(corpus, 0.1, quick()), faultline::Error);
  EXPECT_THROW(plan_time_split(corpus, 0.01, quick()), faultline::Error);  // nothing to train on
}

TEST(Classifier, ATimeSplitWhoseIssuesShareOneDateIsRefusedBeforeTraining) {
  // Every issue created on one day: the cut is that day, and nothing is created before it, whatever the
  // share (before, the split trained on nothing and said there were no manual labels).
  auto corpus = tiny_corpus();
  for (auto& l : corpus) l.issue.created = "2024-01-01";
  try {
    plan_time_split(corpus, 0.8, quick());
    FAIL() << "a split with nothing to train on was planned";
  } catch (const faultline::Error& e) {
    EXPECT_NE(std::string(e.what()).find("trains on the 0 labeled issues created before 2024-01-01"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("--time-split"), std::string::npos) << e.what();
  }
  corpus[0].issue.created = "2023-12-31";  // one older issue is still fewer than 3
  EXPECT_THROW(plan_time_split(corpus, 0.8, quick()), faultline::Error);
}

TEST(Classifier, AModelDirectoryThatCannotBeReadIsAClearError) {
  if (geteuid() == 0) GTEST_SKIP() << "root reads every directory";
  faultline::testing::TempDir dir;
  std::string models = dir.file("m");
  IssueClassifier::train(tiny_corpus(), {}, quick()).save(models);
  std::filesystem::permissions(models, std::filesystem::perms::none);
  std::string message;
  try {
    IssueClassifier::load(models);
  } catch (const faultline::Error& e) {
    message = e.what();
  }
  std::filesystem::permissions(models, std::filesystem::perms::owner_all);
  EXPECT_NE(message.find(models + ": cannot read the model"), std::string::npos) << message;
}

namespace {

// The tiny corpus's root causes as an axis's examples.
std::vector<AxisExample> root_cause_examples() {
  std::vector<AxisExample> out;
  for (const auto& l : tiny_corpus()) {
    out.push_back({extract_features(RuleSet::builtin(), l.issue).document, {}, {}, l.root_cause});
  }
  return out;
}

}  // namespace

TEST(AxisModel, TheDiscussionRuleWeightIsSavedAndReadBack) {
  AxisTraining t = quick();
  t.discussion_rule_weights = {2.0};  // no choice: the member takes part
  auto examples = root_cause_examples();
  auto model = AxisModel::train("root_cause", examples, t);
  ASSERT_EQ(model.weights().discussion_rule, 2.0);
  faultline::testing::TempDir dir;
  model.save(dir.path());
  auto loaded = AxisModel::load(dir.path(), "root_cause");
  EXPECT_EQ(loaded.weights().discussion_rule, 2.0);
  // The loaded weight acts: a discussion score of 1.5 raises its class in both models alike, above what the
  // same model gives it without the score.
  const std::string& label = examples[0].label;
  Distribution scores{{label, 1.5}};
  Tokens tokens = tokenize(examples[0].document);
  auto a = model.predict(tokens, {.discussion_rule_scores = &scores});
  auto b = loaded.predict(tokens, {.discussion_rule_scores = &scores});
  for (const auto& [c, p] : a) EXPECT_NEAR(b.at(c), p, 1e-12) << c;
  EXPECT_GT(b.at(label), loaded.predict(tokens, {}).at(label));
}

TEST(AxisModel, TheGroupModelIsSavedReadBackAndNeeded) {
  AxisTraining t = quick();
  t.class_groups = {
      {"concurrency_error", "g1"}, {"improper_memory_access", "g2"}, {"build_misconfiguration", "g2"}};
  t.group_weights = {1.0};  // no choice: the group member takes part
  auto examples = root_cause_examples();
  auto model = AxisModel::train("root_cause", examples, t);
  EXPECT_EQ(model.weights().group, 1.0);
  EXPECT_FALSE(model.group_vocabulary().empty());
  faultline::testing::TempDir dir;
  model.save(dir.path());
  auto loaded = AxisModel::load(dir.path(), "root_cause");
  for (const auto& e : examples) {
    Tokens tokens = tokenize(e.document);
    auto a = model.predict(tokens, {}), b = loaded.predict(tokens, {});
    for (const auto& [label, p] : a) EXPECT_NEAR(b.at(label), p, 1e-12) << label;
  }
  // A hand-edited description naming a group the group model never learned is refused.
  std::string description = faultline::common::read_text_file(dir.file("root_cause.json"));
  std::string edited = description;
  edited.replace(edited.find("\"g1\""), 4, "\"g9\"");
  faultline::common::write_file_atomically(dir.file("root_cause.json"), edited);
  try {
    AxisModel::load(dir.path(), "root_cause");
    FAIL();
  } catch (const faultline::Error& e) {
    EXPECT_NE(std::string(e.what()).find("the group 'g9' of 'concurrency_error' is unknown"),
              std::string::npos)
        << e.what();
  }
  faultline::common::write_file_atomically(dir.file("root_cause.json"), description);
  EXPECT_NO_THROW(AxisModel::load(dir.path(), "root_cause"));
  std::filesystem::remove(dir.file("root_cause.group.ftz"));
  EXPECT_THROW(AxisModel::load(dir.path(), "root_cause"), faultline::Error);

  // Without a group weight there is no group model, nothing to save, and the predictions differ.
  t.group_weights = {0.0};
  auto flat = AxisModel::train("root_cause", examples, t);
  EXPECT_TRUE(flat.group_vocabulary().empty());
  faultline::testing::TempDir flat_dir;
  flat.save(flat_dir.path());
  EXPECT_FALSE(std::filesystem::exists(flat_dir.file("root_cause.group.ftz")));
  Tokens first = tokenize(examples[0].document);
  EXPECT_NE(flat.predict(first, {}).at("concurrency_error"),
            model.predict(first, {}).at("concurrency_error"));
}

// Hand-worked: of the descriptions a, b, c, those of the classes c and a, in the descriptions' order, twice.
TEST(AxisModel, DescriptionRowsAreTheLabeledClassesDescriptionsInOrderCopiesTimes) {
  const std::vector<ClassDescription> descriptions{{"a", "da"}, {"b", "db"}, {"c", "dc"}};
  std::string rows;
  for (const auto& d : description_rows(descriptions, {"c", "a", "c"}, 2))
    rows += d.label + "=" + d.document + " ";
  EXPECT_EQ(rows, "a=da c=dc a=da c=dc ");
  EXPECT_TRUE(description_rows(descriptions, {"c", "a"}, 0).empty());
  EXPECT_TRUE(description_rows(descriptions, {"z"}, 3).empty());
}

// Words found only in a class's description: a fastText model that read the description knows them and
// takes them for that class; one that did not (no descriptions, or no copies) knows none of them, so it
// says of them what it says of an empty document. A description of a class without labeled examples is
// not read.
TEST(AxisModel, TheFastTextModelLearnsFromTheDescriptionsOfItsLabeledClasses) {
  AxisTraining t = quick();
  t.class_descriptions = {{"concurrency_error", "zebra okapi zebra"}, {"api_misuse", "zebra quagga"}};
  t.description_copies = 6;
  const auto examples = root_cause_examples();
  const auto described = AxisModel::train("root_cause", examples, t);
  const Tokens query = tokenize("zebra okapi");
  const Distribution p = described.predict_fasttext(query, {});
  ASSERT_EQ(p.count("api_misuse"), 0u);  // no labeled example: fastText never learned the label
  EXPECT_GT(p.at("concurrency_error"), 0.5);
  const auto vocabulary = described.fasttext_vocabulary();
  EXPECT_NE(std::find(vocabulary.begin(), vocabulary.end(), "okapi"), vocabulary.end());
  EXPECT_EQ(std::find(vocabulary.begin(), vocabulary.end(), "quagga"), vocabulary.end());
  const nlohmann::json description = described.describe();
  EXPECT_EQ(description.at("fasttext_described_classes"), nlohmann::json({"concurrency_error"}));
  EXPECT_EQ(description.at("fasttext_description_copies"), 6);
  // Training text only: the labels the priors and the neighbour vote are taken from are the examples'.
  EXPECT_EQ(description.at("training_labels").size(), examples.size());
  faultline::testing::TempDir dir;
  described.save(dir.path());
  EXPECT_EQ(AxisModel::load(dir.path(), "root_cause").describe().at("fasttext_described_classes"),
            nlohmann::json({"concurrency_error"}));
  // A model saved before descriptions were read has neither field: it is read as having read none.
  nlohmann::json older =
      nlohmann::json::parse(faultline::common::read_text_file(dir.file("root_cause.json")));
  older.erase("fasttext_described_classes");
  older.erase("fasttext_description_copies");
  faultline::common::write_file_atomically(dir.file("root_cause.json"), older.dump());
  const nlohmann::json read_back = AxisModel::load(dir.path(), "root_cause").describe();
  EXPECT_EQ(read_back.at("fasttext_described_classes"), nlohmann::json::array());
  EXPECT_EQ(read_back.at("fasttext_description_copies"), 0);

  for (int copies : {6, 0}) {
    AxisTraining without = t;
    without.description_copies = copies;
    if (copies) without.class_descriptions.clear();
    const auto model = AxisModel::train("root_cause", examples, without);
    EXPECT_EQ(model.predict_fasttext(query, {}), model.predict_fasttext(tokenize(""), {})) << copies;
  }
  // Each copy is one more reading: read once, the words move the class less.
  AxisTraining once = t;
  once.description_copies = 1;
  EXPECT_LT(
      AxisModel::train("root_cause", examples, once).predict_fasttext(query, {}).at("concurrency_error"),
      p.at("concurrency_error"));
}

TEST(AxisModel, EachFoldOfTheInnerCrossValidationSearchesTheDescriptionsToo) {
  // Twelve examples, six of class p and six of q, each "shared" and one word of its own. "shared" is in
  // every document, more than the search keeps, so an example's only term is its own word, found in no
  // other example, but in its class's description, which holds the words of the class's six examples.
  // When each fold's index holds the descriptions, a held-out example's nearest item is its class's
  // description, the vote is right for all twelve and the inner cross-validation gives it the larger
  // weight; without them an example has no neighbour, the vote says nothing, and the first weight (0) is
  // kept. fastText cannot tell the classes apart: a held-out example's own word is one it never learned.
  const char* words[2][6] = {{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot"},
                             {"golf", "hotel", "india", "juliet", "kilo", "lima"}};
  std::vector<AxisExample> examples;
  std::vector<ClassDescription> descriptions;
  for (int c = 0; c < 2; ++c) {
    const std::string label = c == 0 ? "p" : "q";
    std::string all;
    for (const char* w : words[c]) {
      examples.push_back({std::string("shared ") + w, {}, {}, label, {}});
      all += std::string(all.empty() ? "" : " ") + w;
    }
    descriptions.push_back({label, all});
  }
  AxisTraining t = quick();
  t.rule_weights = {0.0};
  t.discussion_rule_weights = {0.0};
  t.prior_corrections = {0.0};
  t.neighbour_weights = {0.0, 4.0};
  t.searched_descriptions = descriptions;
  t.description_neighbour_weight = 1.0;
  EXPECT_EQ(AxisModel::train("axis", examples, t).weights().neighbour, 4.0);
  // The descriptions in the index but not counted by the vote: no neighbour to read, weight 0.
  t.description_neighbour_weight = 0.0;
  EXPECT_EQ(AxisModel::train("axis", examples, t).weights().neighbour, 0.0);
}

TEST(AxisModel, AClassWithoutAGroupIsAClearError) {
  AxisTraining t = quick();
  t.class_groups = {{"concurrency_error", "g1"}, {"improper_memory_access", "g2"}};
  try {
    AxisModel::train("root_cause", root_cause_examples(), t);
    FAIL();
  } catch (const faultline::Error& e) {
    EXPECT_STREQ(e.what(), "train: the class 'build_misconfiguration' has no group");
  }
}

// The tiny corpus with a discussion in each issue, in words of its class and some of another, so that the
// discussion's second reading moves what a model of it says.
std::vector<LabeledIssue> tiny_corpus_with_discussions() {
  auto corpus = tiny_corpus();
  for (size_t i = 0; i < corpus.size(); ++i) {
    corpus[i].issue.discussion = corpus[(i + 7 * (i % 2)) % corpus.size()].issue.body + " fixed at last";
  }
  return corpus;
}

TEST(Classifier, TheWordTablePathPredictsWhatEachModelsOwnDictionaryPredicts) {
  // analyse() gives every member its ids from the shared word table; the reference is each axis model
  // predicting from the same tokens with no ids given, so that it looks them up in its own fastText
  // dictionary. The group member is forced in, so its path is compared too; the issues have discussions,
  // so the symptom's skipped second reading is compared too.
  AxisTraining t = quick();
  t.group_weights = {1.0};
  auto corpus = tiny_corpus_with_discussions();
  auto model = IssueClassifier::train(corpus, {}, t);
  ASSERT_EQ(model.root_cause_model().weights().group, 1.0);
  corpus[3].issue.body += " plus words the models never saw: zyzzyva quux";
  for (const auto& l : corpus) {
    IssueFeatures f = extract_features(model.rules(), l.issue);
    ASSERT_LT(f.discussion_again.begin, f.discussion_again.end);
    IssueAnalysis a = model.analyse(f);
    auto symptom =
        model.symptom_model().predict(f.tokens, {.rule_scores = &f.symptom_rules,
                                                 .discussion_rule_scores = &f.symptom_discussion_rules,
                                                 .neighbours = &a.symptom_neighbours,
                                                 .discussion_again = f.discussion_again});
    auto cause =
        model.root_cause_model().predict(f.tokens, {.rule_scores = &f.root_cause_rules,
                                                    .discussion_rule_scores = &f.root_cause_discussion_rules,
                                                    .neighbours = &a.root_cause_neighbours,
                                                    .discussion_again = f.discussion_again});
    for (const auto& [label, p] : symptom) EXPECT_NEAR(a.symptom.at(label), p, 1e-12) << label;
    for (const auto& [label, p] : cause) EXPECT_NEAR(a.root_cause.at(label), p, 1e-12) << label;
  }
}

TEST(Classifier, TheSymptomsFastTextModelLearnsAndReadsTheDiscussionOnceAndNoStopWords) {
  // The reference is fastText trained apart, with the settings the symptom's model records, on the labeled
  // documents written with the discussion once and without stop words; its prediction of each such document
  // must be the symptom's fastText member's of the whole features. The same reference trained on the whole
  // documents predicts otherwise, so the comparison can tell the two apart; the root cause reads the
  // discussion twice and every stop word.
  const auto corpus = tiny_corpus_with_discussions();
  auto model = IssueClassifier::train(corpus, {}, quick());
  const auto chosen = model.symptom_model().describe();
  ASSERT_TRUE(chosen.at("fasttext_discussion_once").get<bool>());
  ASSERT_TRUE(chosen.at("fasttext_without_stop_words").get<bool>());
  ASSERT_FALSE(model.root_cause_model().describe().at("fasttext_discussion_once").get<bool>());
  ASSERT_FALSE(model.root_cause_model().describe().at("fasttext_without_stop_words").get<bool>());
  // What each learned: "at" and "the" are in the corpus (every discussion ends "fixed at last", most
  // reports have "the"), so the root cause learned them and the symptom did not; nor any other stop word.
  const auto symptom_words = model.symptom_model().fasttext_vocabulary();
  const auto cause_words = model.root_cause_model().fasttext_vocabulary();
  auto knows = [](const std::vector<std::string>& words, const char* w) {
    return std::find(words.begin(), words.end(), w) != words.end();
  };
  for (const char* w : {"at", "the"}) {
    EXPECT_TRUE(knows(cause_words, w)) << w;
    EXPECT_FALSE(knows(symptom_words, w)) << w;
  }
  EXPECT_TRUE(knows(symptom_words, "fix"));  // the discussion's other words stay
  for (const auto& w : symptom_words) EXPECT_FALSE(is_english_stop_word(w)) << w;
  // What a saved model records of it reads back; a model saved before the field existed learned every word.
  faultline::testing::TempDir dir;
  const std::string saved = dir.file("m");
  model.save(saved);
  EXPECT_TRUE(AxisModel::load(saved, "symptom").describe().at("fasttext_without_stop_words").get<bool>());
  nlohmann::json older = nlohmann::json::parse(faultline::common::read_text_file(saved + "/symptom.json"));
  older.erase("fasttext_without_stop_words");
  faultline::common::write_file_atomically(saved + "/symptom.json", older.dump());
  EXPECT_FALSE(AxisModel::load(saved, "symptom").describe().at("fasttext_without_stop_words").get<bool>());
  FastTextParams params;
  params.epoch = chosen.at("epoch").get<int>();
  params.lr = chosen.at("lr").get<double>();
  params.word_ngrams = chosen.at("word_ngrams").get<int>();
  params.dim = chosen.at("dim").get<int>();
  params.seed = chosen.at("seed").get<int>();
  std::vector<IssueFeatures> features;
  std::vector<std::string> once, whole, labels;
  for (const auto& l : corpus) {
    features.push_back(extract_features(model.rules(), l.issue));
    const IssueFeatures& f = features.back();
    // By hand: the tokens but those of the second reading, the stop words and the end-of-line token.
    std::string document;
    for (size_t i = 0; i + 1 < f.tokens.words.size(); ++i) {
      if ((i < f.discussion_again.begin || i >= f.discussion_again.end) &&
          !is_english_stop_word(f.tokens.words[i]))
        document += (document.empty() ? "" : " ") + f.tokens.words[i];
    }
    once.push_back(document);
    whole.push_back(f.document);
    labels.push_back(l.symptom);
  }
  const auto reference = FastTextModel::train(once, labels, params);
  const auto reading_twice = FastTextModel::train(whole, labels, params);
  size_t differing = 0, twice_differing = 0;
  for (size_t i = 0; i < corpus.size(); ++i) {
    const auto member =
        model.symptom_model().predict_fasttext(features[i].tokens, features[i].discussion_again);
    differing += member != reference.predict(once[i]);
    twice_differing += member != reading_twice.predict(features[i].tokens);
  }
  EXPECT_EQ(differing, 0u);
  EXPECT_GT(twice_differing, corpus.size() / 2);
}

TEST(Classifier, EachAxisLabelsFromTheThresholdItsOwnAccuracyChose) {
  // The inner cross-validation's winners, n of them: no share of n items can have a bound of 1 (all right
  // gives n/(n+1)), so an axis asked for accuracy 1 labels nothing; one asked for 0.01 labels from its
  // lowest inner winner (every share of the mixed corpus's winners is right far more often), a probability.
  // Each axis reads its own accuracy: swapping them swaps the outcome.
  const auto corpus = faultline::testing::mixed_corpus();
  const auto strict_symptom = IssueClassifier::train(
      corpus, {}, quick(), LabelPolicy{.symptom_accuracy = 1.0, .root_cause_accuracy = 0.01});
  EXPECT_GT(strict_symptom.symptom_model().label_threshold(), 1.0);
  EXPECT_LE(strict_symptom.root_cause_model().label_threshold(), 1.0);
  EXPECT_EQ(strict_symptom.symptom_model().label_accuracy(), 1.0);
  EXPECT_EQ(strict_symptom.root_cause_model().label_accuracy(), 0.01);
  const auto strict_cause = IssueClassifier::train(
      corpus, {}, quick(), LabelPolicy{.symptom_accuracy = 0.01, .root_cause_accuracy = 1.0});
  EXPECT_LE(strict_cause.symptom_model().label_threshold(), 1.0);
  EXPECT_GT(strict_cause.root_cause_model().label_threshold(), 1.0);
  // An axis that labels nothing queues every issue, whatever the other says.
  for (const auto& l : corpus) {
    EXPECT_TRUE(strict_symptom.predict(l.issue).abstain);
    EXPECT_TRUE(strict_cause.predict(l.issue).abstain);
  }
  // Between the two, asking for more never lowers the threshold, and somewhere it raises it while still
  // labeling some issues: the thresholds come from the winners' probabilities, not from the extremes alone.
  // On a corpus where a fifth of the root causes are another class's, so that the inner winners are wrong
  // often enough for the accuracy asked to matter.
  auto noisy = corpus;
  for (size_t k = 0; k < noisy.size(); k += 5)
    noisy[k].root_cause = noisy[(k + 20) % noisy.size()].root_cause;
  std::vector<double> thresholds;
  for (double accuracy : {0.01, 0.5, 0.6, 0.7, 0.8, 0.9}) {
    thresholds.push_back(
        IssueClassifier::train(noisy, {}, quick(),
                               LabelPolicy{.symptom_accuracy = 0.01, .root_cause_accuracy = accuracy})
            .root_cause_model()
            .label_threshold());
  }
  EXPECT_TRUE(std::is_sorted(thresholds.begin(), thresholds.end())) << ::testing::PrintToString(thresholds);
  EXPECT_TRUE(std::any_of(thresholds.begin() + 1, thresholds.end(), [&](double t) {
    return t > thresholds.front() && t <= 1.0;
  })) << ::testing::PrintToString(thresholds);
  EXPECT_THROW(IssueClassifier::train(corpus, {}, quick(), LabelPolicy{.symptom_accuracy = 0.0}),
               faultline::Error);
}

TEST(Classifier, AFixedThresholdQueuesAnIssueWhenEitherProbabilityIsUnderIt) {
  const auto corpus = faultline::testing::mixed_corpus();
  // The threshold is the median of the lower of each issue's two probabilities (training is deterministic,
  // so the model trained with it gives the same ones): about half the issues fall under it.
  std::vector<double> lower;
  const auto first = IssueClassifier::train(corpus, {}, quick());
  for (const auto& l : corpus) {
    const IssuePrediction p = first.predict(l.issue);
    lower.push_back(std::min(p.symptom_p, p.root_cause_p));
  }
  std::sort(lower.begin(), lower.end());
  const double median = lower[lower.size() / 2];
  const auto model = IssueClassifier::train(corpus, {}, quick(), LabelPolicy{.abstain_below = median});
  EXPECT_EQ(model.symptom_model().label_threshold(), median);
  EXPECT_EQ(model.root_cause_model().label_threshold(), median);
  EXPECT_EQ(model.root_cause_model().label_accuracy(), 0.0);  // fixed by hand, chosen for no accuracy
  int queued = 0, labeled = 0;
  for (const auto& l : corpus) {
    const IssuePrediction p = model.predict(l.issue);
    EXPECT_EQ(p.abstain, p.symptom_p < median || p.root_cause_p < median) << l.issue.key();
    ++(p.abstain ? queued : labeled);
  }
  // Both outcomes occur, so the check above can fail either way.
  EXPECT_GT(queued, 0);
  EXPECT_GT(labeled, 0);
  EXPECT_THROW(IssueClassifier::train(corpus, {}, quick(), LabelPolicy{.abstain_below = 1.5}),
               faultline::Error);
  EXPECT_THROW(IssueClassifier::train(corpus, {}, quick(), LabelPolicy{.root_cause_accuracy = -0.1}),
               faultline::Error);
  EXPECT_THROW(IssueClassifier::train(corpus, {}, quick(), LabelPolicy{.root_cause_accuracy = std::nan("")}),
               faultline::Error);
}

TEST(Classifier, TheLabelThresholdsAreSavedReadBackAndNeeded) {
  faultline::testing::TempDir dir;
  const std::string models = dir.file("m");
  const auto trained =
      IssueClassifier::train(tiny_corpus(), {}, quick(), LabelPolicy{.root_cause_accuracy = 0.9});
  trained.save(models);
  const auto loaded = IssueClassifier::load(models);
  EXPECT_EQ(loaded.symptom_model().label_threshold(), trained.symptom_model().label_threshold());
  EXPECT_EQ(loaded.root_cause_model().label_threshold(), trained.root_cause_model().label_threshold());
  EXPECT_EQ(loaded.symptom_model().label_accuracy(), 0.95);
  EXPECT_EQ(loaded.root_cause_model().label_accuracy(), 0.9);
  const std::string path = models + "/root_cause.json";
  const auto saved = nlohmann::json::parse(faultline::common::read_text_file(path));
  auto load_error = [&](const nlohmann::json& changed) { return load_error_with(models, path, changed); };
  // A model saved before thresholds were chosen per axis has none: it is refused, not read as labeling all.
  auto without = saved;
  without.erase("label_threshold");
  EXPECT_NE(load_error(without).find("written by an older faultline; retrain"), std::string::npos)
      << load_error(without);
  auto without_accuracy = saved;
  without_accuracy.erase("label_accuracy");
  EXPECT_NE(load_error(without_accuracy).find("written by an older faultline; retrain"), std::string::npos);
  // A threshold under 0 or above the one that labels none, an accuracy outside 0 to 1, and a threshold
  // fixed by hand (accuracy 0) that labels none are no model train writes.
  for (auto [field, value] : {std::pair{"label_threshold", -0.1}, std::pair{"label_threshold", 1.5},
                              std::pair{"label_accuracy", 1.5}, std::pair{"label_accuracy", -0.5}}) {
    auto changed = saved;
    changed[field] = value;
    EXPECT_NE(load_error(changed).find("inconsistent model description; retrain"), std::string::npos)
        << field << " " << value;
  }
  auto fixed_none = saved;
  fixed_none["label_accuracy"] = 0.0;
  fixed_none["label_threshold"] = faultline::model::label_nothing_threshold();
  EXPECT_NE(load_error(fixed_none).find("inconsistent model description; retrain"), std::string::npos);
  auto nothing = saved;
  nothing["label_threshold"] = faultline::model::label_nothing_threshold();  // labels none: a valid model
  EXPECT_EQ(load_error(nothing), "(loaded)");
  EXPECT_EQ(load_error(saved), "(loaded)");
}

TEST(Evaluation, WhatEachFoldLabelsByItsOwnThresholdIsCounted) {
  // Every fifth symptom relabeled, so that the symptom is right on fewer than all 30.
  auto corpus = tiny_corpus();
  for (size_t i = 0; i < corpus.size(); i += 5) corpus[i].symptom = corpus[(i + 10) % corpus.size()].symptom;
  // Thresholds fixed at 0: every held-out issue is labeled, at the combined accuracy.
  auto all = evaluate(corpus, 5, 3, quick(), 2, {}, LabelPolicy{.abstain_below = 0.0});
  EXPECT_EQ(all.symptom.own_threshold.labeled, 30);
  EXPECT_DOUBLE_EQ(all.symptom.own_threshold.coverage, 1.0);
  EXPECT_DOUBLE_EQ(all.symptom.own_threshold.accuracy, all.symptom.combined.accuracy);
  EXPECT_LT(all.symptom.own_threshold.accuracy, 1.0);
  EXPECT_EQ(all.symptom.mean_threshold, 0.0);
  // The root cause asked for accuracy 1: no fold labels any (each fold's threshold counts as 1, and no
  // accuracy was measured); the symptom asked for 0.01 labels from each fold's lowest inner winner, so some.
  // Each axis is counted by its own thresholds: swapped, the outcomes swap.
  auto none = evaluate(corpus, 5, 3, quick(), 2, {},
                       LabelPolicy{.symptom_accuracy = 0.01, .root_cause_accuracy = 1.0});
  EXPECT_EQ(none.root_cause.own_threshold.labeled, 0);
  EXPECT_EQ(none.root_cause.own_threshold.coverage, 0.0);
  EXPECT_TRUE(std::isnan(none.root_cause.own_threshold.accuracy));
  EXPECT_DOUBLE_EQ(none.root_cause.mean_threshold, 1.0);
  EXPECT_EQ(none.root_cause.label_accuracy, 1.0);
  EXPECT_GT(none.symptom.own_threshold.labeled, 0);
  EXPECT_EQ(none.symptom.label_accuracy, 0.01);
  const auto j = evaluation_json(none);
  EXPECT_EQ(j.at("root_cause").at("own_threshold").at("labeled"), 0);
  // JSON has no NaN: written out, it is null.
  EXPECT_TRUE(nlohmann::json::parse(j.dump()).at("root_cause").at("own_threshold").at("accuracy").is_null());
  EXPECT_EQ(j.at("symptom").at("own_threshold").at("label_accuracy"), 0.01);
}
