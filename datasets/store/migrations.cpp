#include "datasets/store/migrations.hpp"

namespace faultline::datasets {

// Never edit a released step: add a new one. Each step runs in one transaction with its version bump.
const std::vector<std::string>& migrations() {
  static const std::vector<std::string> steps = {
      // 1: mined data — repositories, issues with their raw API objects, labels, comments.
      R"sql(
CREATE TABLE repositories (
  id INTEGER PRIMARY KEY,
  full_name TEXT NOT NULL UNIQUE,
  previous_name TEXT,
  high_water_issues TEXT,
  high_water_comments TEXT
);
CREATE TABLE issues (
  id INTEGER PRIMARY KEY,
  repository_id INTEGER NOT NULL REFERENCES repositories(id),
  number INTEGER NOT NULL,
  url TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('open', 'closed')),
  created TEXT NOT NULL DEFAULT '',
  updated TEXT NOT NULL DEFAULT '',
  title TEXT NOT NULL,
  body TEXT NOT NULL DEFAULT '',
  error_lines TEXT NOT NULL DEFAULT '[]',
  env TEXT NOT NULL DEFAULT '',
  discussion TEXT NOT NULL DEFAULT '',
  scope TEXT CHECK (scope IS NULL OR scope IN ('in', 'out')),
  scope_reason TEXT,
  raw_json TEXT,
  UNIQUE (repository_id, number)
);
CREATE TABLE issue_labels (
  issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  PRIMARY KEY (issue_id, name)
);
CREATE TABLE comments (
  id INTEGER PRIMARY KEY,
  repository_id INTEGER NOT NULL REFERENCES repositories(id),
  issue_number INTEGER NOT NULL,
  author TEXT NOT NULL DEFAULT '',
  created TEXT NOT NULL DEFAULT '',
  updated TEXT NOT NULL DEFAULT '',
  body TEXT NOT NULL DEFAULT '',
  raw_json TEXT
);
CREATE INDEX comments_by_issue ON comments(repository_id, issue_number);
CREATE TABLE http_cache (
  url TEXT PRIMARY KEY,
  etag TEXT,
  last_modified TEXT
);
)sql",
      // 2: the study's funnel — screening decisions and samples.
      R"sql(
CREATE TABLE screening (
  issue_id INTEGER PRIMARY KEY REFERENCES issues(id) ON DELETE CASCADE,
  decision TEXT NOT NULL CHECK (decision IN ('candidate', 'excluded')),
  rule TEXT NOT NULL,
  screened_at TEXT NOT NULL
);
CREATE TABLE samples (
  name TEXT NOT NULL,
  issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  status TEXT NOT NULL CHECK (status IN ('sampled', 'excluded')),
  origin TEXT NOT NULL CHECK (origin IN ('draw', 'replacement')),
  reason TEXT,
  replaced_by INTEGER REFERENCES issues(id),
  seed INTEGER NOT NULL,
  PRIMARY KEY (name, issue_id)
);
)sql",
      // 3: manual labels, their audit and adjudication.
      R"sql(
CREATE TABLE label_batches (
  id INTEGER PRIMARY KEY,
  rater TEXT NOT NULL,
  source TEXT NOT NULL,
  imported_at TEXT NOT NULL
);
CREATE TABLE manual_labels (
  batch_id INTEGER NOT NULL REFERENCES label_batches(id) ON DELETE CASCADE,
  issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  rater TEXT NOT NULL,
  symptom TEXT NOT NULL,
  root_cause TEXT NOT NULL,
  note TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (rater, issue_id)
);
CREATE TABLE adjudications (
  issue_id INTEGER PRIMARY KEY REFERENCES issues(id) ON DELETE CASCADE,
  adjudicator TEXT NOT NULL,
  symptom TEXT NOT NULL,
  root_cause TEXT NOT NULL,
  note TEXT NOT NULL DEFAULT '',
  source TEXT NOT NULL,
  adjudicated_at TEXT NOT NULL
);
CREATE TABLE audits (
  id INTEGER PRIMARY KEY,
  raters TEXT NOT NULL,
  n INTEGER NOT NULL,
  kappa_joint REAL NOT NULL,
  threshold REAL NOT NULL,
  gate TEXT NOT NULL CHECK (gate IN ('pass', 'fail')),
  audited_at TEXT NOT NULL
);
CREATE TABLE final_labels (
  issue_id INTEGER PRIMARY KEY REFERENCES issues(id) ON DELETE CASCADE,
  symptom TEXT NOT NULL,
  root_cause TEXT NOT NULL,
  provenance TEXT NOT NULL CHECK (provenance IN ('agreed', 'adjudicated')),
  raters TEXT NOT NULL,
  audit_id INTEGER REFERENCES audits(id),
  decided_at TEXT NOT NULL
);
)sql",
      // 4: classifier predictions, reproducer links and regression-suite runs.
      R"sql(
CREATE TABLE predictions (
  issue_id INTEGER PRIMARY KEY REFERENCES issues(id) ON DELETE CASCADE,
  model_version TEXT NOT NULL,
  scope TEXT NOT NULL,
  scope_p REAL NOT NULL,
  symptom TEXT NOT NULL,
  symptom_p REAL NOT NULL,
  root_cause TEXT NOT NULL,
  root_cause_p REAL NOT NULL,
  abstain INTEGER NOT NULL,
  rules_fired TEXT NOT NULL DEFAULT '[]',
  predicted_at TEXT NOT NULL
);
CREATE TABLE repro_links (
  issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  repro_id TEXT NOT NULL,
  PRIMARY KEY (issue_id, repro_id)
);
CREATE TABLE suite_runs (
  id INTEGER PRIMARY KEY,
  mode TEXT NOT NULL,
  started_at TEXT NOT NULL
);
CREATE TABLE suite_results (
  run_id INTEGER NOT NULL REFERENCES suite_runs(id) ON DELETE CASCADE,
  repro_id TEXT NOT NULL,
  variant TEXT NOT NULL CHECK (variant IN ('buggy', 'fixed')),
  mode TEXT NOT NULL,
  outcome TEXT NOT NULL,
  detail TEXT NOT NULL DEFAULT '',
  seconds REAL NOT NULL DEFAULT 0,
  PRIMARY KEY (run_id, repro_id, variant, mode)
);
)sql",
      // 5: miner resume cursors and the timeline evidence of sampled issues.
      R"sql(
CREATE TABLE mine_cursors (
  repository_id INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  listing TEXT NOT NULL CHECK (listing IN ('issues', 'comments')),
  next_url TEXT NOT NULL,
  PRIMARY KEY (repository_id, listing)
);
CREATE TABLE timeline_events (
  issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  event TEXT NOT NULL,
  reference TEXT NOT NULL DEFAULT '',
  raw_json TEXT NOT NULL,
  PRIMARY KEY (issue_id, position)
);
)sql",
      // 6: the reproducer catalog (from the manifests), so cases can be matched to reproducers by label.
      R"sql(
CREATE TABLE reproducers (
  id TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  symptom TEXT NOT NULL,
  root_cause TEXT NOT NULL
);
)sql",
      // 7: where a reproducer came from (its source issues, so cases are matched to it when a report is made,
      // whatever the order of commands), suite --repeat stability, and what each result ran with.
      R"sql(
ALTER TABLE reproducers ADD COLUMN source_issues TEXT NOT NULL DEFAULT '[]';
ALTER TABLE suite_runs ADD COLUMN repeat INTEGER NOT NULL DEFAULT 1;
ALTER TABLE suite_results ADD COLUMN runs INTEGER NOT NULL DEFAULT 1;
ALTER TABLE suite_results ADD COLUMN runs_as_expected INTEGER NOT NULL DEFAULT 0;
ALTER TABLE suite_results ADD COLUMN stability TEXT NOT NULL DEFAULT '';
ALTER TABLE suite_results ADD COLUMN cuda_toolkit TEXT NOT NULL DEFAULT 'none';
ALTER TABLE suite_results ADD COLUMN driver TEXT NOT NULL DEFAULT 'none';
ALTER TABLE suite_results ADD COLUMN compute_capability TEXT NOT NULL DEFAULT 'none';
-- Before this step a compile counted as pass: a build-mode pass without an inspected artifact is built.
UPDATE suite_results SET outcome = 'built' WHERE mode = 'build' AND outcome = 'pass' AND detail LIKE 'built %';
)sql",
      // 8: the miner's memory for renames (GitHub's stable repository id, every name a repository had) and
      // for completeness checks (the numbers the issue listing showed to be pull requests).
      R"sql(
ALTER TABLE repositories ADD COLUMN github_id INTEGER;
CREATE TABLE repository_aliases (
  name TEXT PRIMARY KEY,
  repository_id INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE
);
CREATE TABLE listing_pull_requests (
  repository_id INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  number INTEGER NOT NULL,
  PRIMARY KEY (repository_id, number)
);
)sql",
      // 9: a sample may be a census (every candidate kept, nothing drawn), as the bundled snapshot's is.
      // SQLite
      // cannot change a CHECK in place, so the table is rebuilt with its rows.
      R"sql(
CREATE TABLE samples_v9 (
  name TEXT NOT NULL,
  issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  status TEXT NOT NULL CHECK (status IN ('sampled', 'excluded')),
  origin TEXT NOT NULL CHECK (origin IN ('draw', 'replacement', 'census')),
  reason TEXT,
  replaced_by INTEGER REFERENCES issues(id),
  seed INTEGER NOT NULL,
  PRIMARY KEY (name, issue_id)
);
INSERT INTO samples_v9 SELECT name, issue_id, status, origin, reason, replaced_by, seed FROM samples;
DROP TABLE samples;
ALTER TABLE samples_v9 RENAME TO samples;
)sql",
      // 10: suite runs collected from Slurm job arrays: which node and device each result ran on, its shard,
      // the run directory it came from, and the jobs submitted for it.
      R"sql(
ALTER TABLE suite_results ADD COLUMN node TEXT NOT NULL DEFAULT '';
ALTER TABLE suite_results ADD COLUMN device TEXT NOT NULL DEFAULT 'none';
ALTER TABLE suite_results ADD COLUMN shard INTEGER;
ALTER TABLE suite_runs ADD COLUMN slurm_run_dir TEXT NOT NULL DEFAULT '';
ALTER TABLE suite_runs ADD COLUMN slurm_array TEXT NOT NULL DEFAULT '';
CREATE TABLE slurm_jobs (
  run_dir TEXT NOT NULL,
  array_name TEXT NOT NULL,
  job_id TEXT NOT NULL,
  array_indexes TEXT NOT NULL,
  submitted_at TEXT NOT NULL,
  PRIMARY KEY (run_dir, array_name, job_id)
);
)sql",
      // 11: a former name is one alias in any case, as GitHub's names ignore case. Of the aliases a store
      // holds under one name in several spellings, the one written last stays (a rename writes its alias
      // anew, so the highest rowid is the latest owner of the name).
      R"sql(
DELETE FROM repository_aliases
  WHERE rowid NOT IN (SELECT MAX(rowid) FROM repository_aliases GROUP BY name COLLATE NOCASE);
CREATE UNIQUE INDEX repository_aliases_name_in_any_case ON repository_aliases(name COLLATE NOCASE);
)sql",
      // 12: the label threshold each axis's probability was held against, so that the uncertain queue can
      // put first the predictions furthest under theirs. NULL: a prediction stored before they were kept.
      R"sql(
ALTER TABLE predictions ADD COLUMN symptom_threshold REAL;
ALTER TABLE predictions ADD COLUMN root_cause_threshold REAL;
)sql",
      // 13: a screening decision and a prediction hold only for the issue they read. When a write changes
      // what screening reads, the decision goes: the state, title and labels for a decision of the rules, a
      // person's scope decision for any (one that followed a person's decision read nothing else). When it
      // changes what the classifier reads, the prediction goes: the title, body, error lines, environment,
      // discussion, the comments where the issue has no discussion of its own (they are its discussion
      // then), the repository's name in lower case. The issue then counts as not screened or not classified
      // until the next screen or classify, instead of keeping a result made on other facts. A write that
      // changes none of them (the same snapshot imported again) keeps both. Results made stale before this
      // step cannot be told apart and stay.
      R"sql(
CREATE TRIGGER screening_outdated_by_issue AFTER UPDATE OF state, title, scope ON issues
  WHEN OLD.state IS NOT NEW.state OR OLD.title IS NOT NEW.title OR OLD.scope IS NOT NEW.scope
  BEGIN
    DELETE FROM screening WHERE issue_id = NEW.id AND (OLD.scope IS NOT NEW.scope OR rule NOT LIKE 'scope:%');
  END;
CREATE TRIGGER screening_outdated_by_label_added AFTER INSERT ON issue_labels
  BEGIN DELETE FROM screening WHERE issue_id = NEW.issue_id AND rule NOT LIKE 'scope:%'; END;
CREATE TRIGGER screening_outdated_by_label_removed AFTER DELETE ON issue_labels
  BEGIN DELETE FROM screening WHERE issue_id = OLD.issue_id AND rule NOT LIKE 'scope:%'; END;
CREATE TRIGGER prediction_outdated_by_issue
  AFTER UPDATE OF repository_id, title, body, error_lines, env, discussion ON issues
  WHEN OLD.repository_id IS NOT NEW.repository_id OR OLD.title IS NOT NEW.title OR OLD.body IS NOT NEW.body
    OR OLD.error_lines IS NOT NEW.error_lines OR OLD.env IS NOT NEW.env OR OLD.discussion IS NOT NEW.discussion
  BEGIN DELETE FROM predictions WHERE issue_id = NEW.id; END;
CREATE TRIGGER prediction_outdated_by_comment_added AFTER INSERT ON comments
  BEGIN
    DELETE FROM predictions WHERE issue_id IN (SELECT id FROM issues WHERE repository_id = NEW.repository_id
                                                 AND number = NEW.issue_number AND discussion = '');
  END;
CREATE TRIGGER prediction_outdated_by_comment_changed
  AFTER UPDATE OF repository_id, issue_number, created, body ON comments
  WHEN OLD.repository_id IS NOT NEW.repository_id OR OLD.issue_number IS NOT NEW.issue_number
    OR OLD.created IS NOT NEW.created OR OLD.body IS NOT NEW.body
  BEGIN
    DELETE FROM predictions WHERE issue_id IN
      (SELECT id FROM issues WHERE discussion = '' AND
         ((repository_id = OLD.repository_id AND number = OLD.issue_number)
          OR (repository_id = NEW.repository_id AND number = NEW.issue_number)));
  END;
CREATE TRIGGER prediction_outdated_by_comment_removed AFTER DELETE ON comments
  BEGIN
    DELETE FROM predictions WHERE issue_id IN (SELECT id FROM issues WHERE repository_id = OLD.repository_id
                                                 AND number = OLD.issue_number AND discussion = '');
  END;
CREATE TRIGGER prediction_outdated_by_rename AFTER UPDATE OF full_name ON repositories
  WHEN lower(OLD.full_name) IS NOT lower(NEW.full_name)
  BEGIN DELETE FROM predictions WHERE issue_id IN (SELECT id FROM issues WHERE repository_id = NEW.id); END;
)sql",
      // 14: earlier miners kept a validator for every listing page; one of a page with more after it (over a
      // page of entries in the mark's second) is answered 304 while new entries follow it. Which pages had
      // more is not recorded, so every listing's validators go; the next refresh asks each listing once in
      // full.
      R"sql(
DELETE FROM http_cache WHERE url LIKE '%/issues?%' OR url LIKE '%/issues/comments?%';
)sql",
      // 15: a listing pass remembers when it began in GitHub's time, so that a resumed pass reads again what
      // changed since (an entry GitHub showed late may have been passed unseen).
      R"sql(
ALTER TABLE mine_cursors ADD COLUMN pass_started TEXT NOT NULL DEFAULT '';
)sql",
      // 16: the walks after a pass are kept in the cursor too: which one it is in and the URL it began at.
      // pass_started holds when the pass or walk the cursor is in began.
      R"sql(
ALTER TABLE mine_cursors ADD COLUMN walk INTEGER NOT NULL DEFAULT 0;
ALTER TABLE mine_cursors ADD COLUMN walk_start TEXT NOT NULL DEFAULT '';
)sql",
      // 17: a --verify stopped before its end keeps how far it checked and what it found missing, so that a
      // rerun goes on after them instead of asking for the same missing numbers again.
      R"sql(
CREATE TABLE verify_progress (
  repository_id INTEGER PRIMARY KEY REFERENCES repositories(id) ON DELETE CASCADE,
  checked_through INTEGER NOT NULL
);
CREATE TABLE verify_missing (
  repository_id INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  number INTEGER NOT NULL,
  reason TEXT NOT NULL,
  PRIMARY KEY (repository_id, number)
);
)sql",
      // 18: a failed audit now withdraws the final labels; earlier ones left those of the last pass in force.
      // Where the latest audit failed, they are withdrawn now (the next audit that passes makes labels final
      // again; manual labels and adjudications stay).
      R"sql(
DELETE FROM final_labels WHERE (SELECT gate FROM audits ORDER BY id DESC LIMIT 1) = 'fail';
)sql",
      // 19: a cursor within one second's entries paged by page numbers keeps which reading of them it is in
      // and what that reading stored, so that a stopped mine knows whether to read the second again.
      R"sql(
ALTER TABLE mine_cursors ADD COLUMN group_reading INTEGER NOT NULL DEFAULT 0;
ALTER TABLE mine_cursors ADD COLUMN group_stored INTEGER NOT NULL DEFAULT 0;
)sql",
  };
  return steps;
}

}  // namespace faultline::datasets
