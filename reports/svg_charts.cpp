#include "reports/svg_charts.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

#include "reports/table_formats.hpp"
#include "reports/tables.hpp"
#include "taxonomy/taxonomy.hpp"

namespace faultline::reports {

namespace {

const taxonomy::Taxonomy& tax() { return taxonomy::Taxonomy::builtin(); }

// Colour-blind-safe palette (Okabe–Ito), one colour per symptom in taxonomy order.
const char* const kPalette[] = {"#E69F00", "#56B4E9", "#D55E00", "#CC79A7", "#0072B2", "#009E73"};

std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", v);
  return b;
}

std::string rect(const std::string& cls, double x, double y, double w, double h, const std::string& fill,
                 const std::string& title) {
  return "<rect class=\"" + cls + "\" x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(w) +
         "\" height=\"" + num(h) + "\" fill=\"" + fill + "\"><title>" + html_escape(title) +
         "</title></rect>";
}

std::string text(double x, double y, const std::string& s, const std::string& extra = "") {
  return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" " + extra + ">" + html_escape(s) + "</text>";
}

std::string svg_open(int w, int h, const std::string& label) {
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"" + html_escape(label) +
         "\" viewBox=\"0 0 " + std::to_string(w) + " " + std::to_string(h) + "\" width=\"" +
         std::to_string(w) + "\" height=\"" + std::to_string(h) +
         "\" font-family=\"sans-serif\" font-size=\"11\">";
}

}  // namespace

std::string symptom_stack_chart(const ReportData& data) {
  auto repos = repository_order(data.cases);
  std::map<std::string, std::map<std::string, int>> counts;
  std::map<std::string, int> totals;
  for (const auto& c : data.cases) ++counts[c.repo][c.symptom], ++totals[c.repo];
  int top = 1;
  for (const auto& [r, n] : totals) top = std::max(top, n);
  const double left = 110, width = 460, bar_h = 22, gap = 8;
  int height = static_cast<int>(30 + repos.size() * (bar_h + gap) + 50);
  std::string s = svg_open(720, height, "Symptoms per repository");
  double y = 20;
  for (const auto& repo : repos) {
    s += text(left - 6, y + 15, repository_name(repo), "text-anchor=\"end\"");
    double x = left;
    int k = 0;
    for (const auto& sym : tax().symptoms()) {
      int n = counts[repo][sym.id];
      if (n > 0) {
        double w = width * n / top;
        s += rect("bar", x, y, w, bar_h, kPalette[k],
                  repository_name(repo) + ": " + sym.name + " " + std::to_string(n));
        x += w;
      }
      ++k;
    }
    s += text(x + 4, y + 15, std::to_string(totals[repo]));
    y += bar_h + gap;
  }
  // Legend: three entries per line.
  int k = 0;
  for (const auto& sym : tax().symptoms()) {
    double lx = left + 180.0 * (k % 3), ly = y + 6 + 16.0 * (k / 3);
    s += "<rect x=\"" + num(lx) + "\" y=\"" + num(ly) + "\" width=\"10\" height=\"10\" fill=\"" +
         kPalette[k++] + "\"/>";
    s += text(lx + 14, ly + 9, sym.name);
  }
  return s + "</svg>";
}

std::string heat_map_chart(const ReportData& data) {
  std::map<std::string, std::map<std::string, int>> counts;
  int top = 1;
  for (const auto& c : data.cases) top = std::max(top, ++counts[c.root_cause][c.symptom]);
  const double left = 230, cell_w = 96, cell_h = 20, header = 40;
  int width = static_cast<int>(left + cell_w * tax().symptoms().size() + 10);
  int height = static_cast<int>(header + cell_h * tax().root_causes().size() + 10);
  std::string s = svg_open(width, height, "Root cause by symptom heat map");
  double x = left;
  for (const auto& sym : tax().symptoms()) {
    // The first word of the name ("Deployment", "Incorrect", …) tells the symptoms apart and fits the column.
    s += text(x + cell_w / 2, header - 8, sym.name.substr(0, sym.name.find(' ')), "text-anchor=\"middle\"");
    x += cell_w;
  }
  double y = header;
  for (const auto& rc : tax().root_causes()) {
    s += text(left - 6, y + 14, rc.name, "text-anchor=\"end\"");
    x = left;
    for (const auto& sym : tax().symptoms()) {
      int n = counts[rc.id][sym.id];
      // Shade from white (0) to deep blue (the busiest cell).
      int shade = 255 - static_cast<int>(200.0 * n / top);
      char fill[16];
      std::snprintf(fill, sizeof fill, "#%02x%02xff", shade, shade);
      s += rect("cell", x, y, cell_w - 2, cell_h - 2, fill,
                rc.name + " × " + sym.name + ": " + std::to_string(n));
      if (n > 0) s += text(x + cell_w / 2 - 1, y + 13, std::to_string(n), "text-anchor=\"middle\"");
      x += cell_w;
    }
    y += cell_h;
  }
  return s + "</svg>";
}

std::string funnel_chart(const ReportData& data) {
  auto total = funnel::funnel_total(data.funnel.rows);
  const std::pair<const char*, int> stages[] = {{"Raw", total.raw},
                                                {"Candidate", total.candidates},
                                                {"Sampled", total.sampled},
                                                {"Final", total.labeled}};
  int top = std::max(1, total.raw);
  std::string s = svg_open(620, 150, "Funnel from raw issues to the final labeled set");
  double y = 10;
  for (const auto& [name, n] : stages) {
    double w = 440.0 * n / top;
    s += text(80, y + 20, name, "text-anchor=\"end\"");
    s += rect("funnel-bar", 90 + (440 - w) / 2, y, std::max(w, 1.0), 28, "#0072B2",
              std::string(name) + ": " + std::to_string(n));
    s += text(540, y + 20, std::to_string(n));
    y += 34;
  }
  return s + "</svg>";
}

std::string share_chart(const ReportData& data) {
  const double n = std::max<size_t>(1, data.cases.size());
  std::map<std::string, int> counts;
  for (const auto& c : data.cases) ++counts[c.symptom], ++counts[c.root_cause];
  std::vector<const taxonomy::Category*> categories;
  for (const auto& c : tax().symptoms()) categories.push_back(&c);
  for (const auto& c : tax().root_causes()) categories.push_back(&c);
  const double left = 230, scale = 8, row = 26;
  int height = static_cast<int>(30 + row * categories.size() + 20);
  std::string s = svg_open(720, height, "Share of each category here and in the study");
  s += "<rect x=\"" + num(left) + "\" y=\"4\" width=\"10\" height=\"10\" fill=\"#0072B2\"/>" +
       text(left + 14, 13, "this dataset");
  s += "<rect x=\"" + num(left + 110) + "\" y=\"4\" width=\"10\" height=\"10\" fill=\"#BBBBBB\"/>" +
       text(left + 124, 13, "study");
  double y = 24;
  const double study_n = tax().study().total;
  for (const auto* c : categories) {
    double ours = 100.0 * counts[c->id] / n, theirs = 100.0 * c->study_count / study_n;
    s += text(left - 6, y + 14, c->name, "text-anchor=\"end\"");
    s += rect("share-bar", left, y, std::max(ours * scale, 0.5), 10, "#0072B2",
              c->name + ": " + percent(counts[c->id], static_cast<long long>(n)) + " here");
    s += rect("share-bar", left, y + 11, std::max(theirs * scale, 0.5), 10, "#BBBBBB",
              c->name + ": " + percent(c->study_count, static_cast<long long>(study_n)) + " in the study");
    y += row;
  }
  return s + "</svg>";
}

}  // namespace faultline::reports
