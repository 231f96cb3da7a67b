#include "reports/svg_charts.hpp"

#include <algorithm>
#include <cmath>
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

// A round tick step (1, 2 or 5 × 10^k) that puts at most six ticks between 0 and `top`.
double tick_step(double top) {
  double step = 1;
  while (top / step > 6) {
    for (double factor : {2.0, 2.5, 2.0}) {
      step *= factor;
      if (top / step <= 6) break;
    }
  }
  return step;
}

// A horizontal axis at `y` from x0 (value 0) rightwards, `scale` pixels per unit, with a tick (class
// "axis-tick") and a label every tick_step up to `top`; `unit` follows each label ("%" for shares).
std::string x_axis(double x0, double y, double scale, double top, const std::string& unit,
                   const std::string& title) {
  double step = tick_step(top);
  double end = x0 + scale * top;
  std::string s = "<g class=\"axis\"><line x1=\"" + num(x0) + "\" y1=\"" + num(y) + "\" x2=\"" + num(end) +
                  "\" y2=\"" + num(y) + "\" stroke=\"#555\"/>";
  for (double v = 0; v <= top + 1e-9; v += step) {
    double x = x0 + scale * v;
    char label[32];
    std::snprintf(label, sizeof label, step < 1 ? "%.1f" : "%.0f", v);
    s += "<line class=\"axis-tick\" x1=\"" + num(x) + "\" y1=\"" + num(y) + "\" x2=\"" + num(x) + "\" y2=\"" +
         num(y + 4) + "\" stroke=\"#555\"/>";
    s += text(x, y + 15, label + unit, "text-anchor=\"middle\" fill=\"#444\"");
  }
  s += text(x0 + scale * top / 2, y + 30, title, "text-anchor=\"middle\" fill=\"#444\"");
  return s + "</g>";
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
  // The axis runs to the first tick at or above the longest bar, so that the bar ends on the scale.
  const double axis_top = std::ceil(top / tick_step(top)) * tick_step(top);
  const double left = 110, width = 460, bar_h = 22, gap = 8;
  const double scale = width / axis_top;
  double y = 20;
  const double axis_y = y + repos.size() * (bar_h + gap);
  int height = static_cast<int>(axis_y + 40 + 16 * ((tax().symptoms().size() + 2) / 3) + 10);
  std::string s = svg_open(720, height, "Symptoms per repository");
  for (const auto& repo : repos) {
    s += text(left - 6, y + 15, repository_name(repo), "text-anchor=\"end\"");
    double x = left;
    int k = 0;
    for (const auto& sym : tax().symptoms()) {
      int n = counts[repo][sym.id];
      if (n > 0) {
        double w = scale * n;
        s += rect("bar", x, y, w, bar_h, kPalette[k],
                  repository_name(repo) + ": " + sym.name + " " + std::to_string(n));
        x += w;
      }
      ++k;
    }
    s += text(x + 4, y + 15, std::to_string(totals[repo]));
    y += bar_h + gap;
  }
  s += x_axis(left, axis_y, scale, axis_top, "", "labeled issues");
  // Legend: three entries per line, below the axis title.
  int k = 0;
  for (const auto& sym : tax().symptoms()) {
    double lx = left + 180.0 * (k % 3), ly = axis_y + 40 + 16.0 * (k / 3);
    s += "<rect x=\"" + num(lx) + "\" y=\"" + num(ly) + "\" width=\"10\" height=\"10\" fill=\"" +
         kPalette[k++] + "\"/>";
    s += text(lx + 14, ly + 9, sym.name);
  }
  return s + "</svg>";
}

namespace {

// White (0) to deep blue (the busiest cell). The count is written in black or white, whichever contrasts
// more with the cell (WCAG relative luminance); one of the two always reaches 4.5:1.
struct Shade {
  std::string fill;
  std::string ink;
};

double relative_luminance(int r, int g, int b) {
  auto linear = [](int c) {
    double v = c / 255.0;
    return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

Shade shade_of(int n, int top) {
  int level = 255 - static_cast<int>(200.0 * n / top);
  char fill[16];
  std::snprintf(fill, sizeof fill, "#%02x%02xff", level, level);
  double l = relative_luminance(level, level, 255);
  bool white = (1.05 / (l + 0.05)) > ((l + 0.05) / 0.05);
  return {fill, white ? "#ffffff" : "#000000"};
}

}  // namespace

std::string heat_map_chart(const ReportData& data) {
  std::map<std::string, std::map<std::string, int>> counts;
  int top = 1;
  for (const auto& c : data.cases) top = std::max(top, ++counts[c.root_cause][c.symptom]);
  const double left = 230, cell_w = 96, cell_h = 20, header = 44, legend_h = 56;
  int width = static_cast<int>(left + cell_w * tax().symptoms().size() + 10);
  double grid_bottom = header + cell_h * tax().root_causes().size();
  int height = static_cast<int>(grid_bottom + legend_h);
  std::string s = svg_open(width, height, "Root cause by symptom heat map");
  double x = left;
  for (const auto& sym : tax().symptoms()) {
    // Full names, one word per line, so that no heading is cut to fit its column.
    std::string heading = "<text class=\"heat-heading\" x=\"" + num(x + cell_w / 2) + "\" y=\"" +
                          num(header - 22) + "\" text-anchor=\"middle\">";
    size_t start = 0;
    for (int line = 0; start <= sym.name.size(); ++line) {
      size_t end = sym.name.find(' ', start);
      std::string word = sym.name.substr(start, end == std::string::npos ? std::string::npos : end - start);
      heading += "<tspan x=\"" + num(x + cell_w / 2) + "\" dy=\"" + (line ? "13" : "0") + "\">" +
                 html_escape(word) + "</tspan>";
      if (end == std::string::npos) break;
      start = end + 1;
    }
    s += heading + "</text>";
    x += cell_w;
  }
  double y = header;
  for (const auto& rc : tax().root_causes()) {
    s += text(left - 6, y + 14, rc.name, "text-anchor=\"end\"");
    x = left;
    for (const auto& sym : tax().symptoms()) {
      int n = counts[rc.id][sym.id];
      Shade shade = shade_of(n, top);
      s += rect("cell", x, y, cell_w - 2, cell_h - 2, shade.fill,
                rc.name + " × " + sym.name + ": " + std::to_string(n));
      if (n > 0) {
        s += text(x + cell_w / 2 - 1, y + 13, std::to_string(n),
                  "class=\"cell-count\" text-anchor=\"middle\" fill=\"" + shade.ink + "\"");
      }
      x += cell_w;
    }
    y += cell_h;
  }
  // Colour legend: swatches from 0 to the busiest cell's count.
  const int steps = 6;
  double lx = left, ly = grid_bottom + 14, sw = 40;
  s += "<g class=\"heat-legend\">" + text(lx - 6, ly + 12, "issues per cell", "text-anchor=\"end\"");
  for (int i = 0; i < steps; ++i) {
    int n = static_cast<int>(std::lround(static_cast<double>(top) * i / (steps - 1)));
    Shade shade = shade_of(n, top);
    s += "<rect class=\"legend-swatch\" x=\"" + num(lx + sw * i) + "\" y=\"" + num(ly) + "\" width=\"" +
         num(sw) + "\" height=\"16\" fill=\"" + shade.fill + "\" stroke=\"#ccc\"/>";
    s += text(lx + sw * i + sw / 2, ly + 12, std::to_string(n),
              "text-anchor=\"middle\" fill=\"" + shade.ink + "\"");
  }
  return s + "</g></svg>";
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
  const double study_n = tax().study().total;
  std::map<std::string, int> counts;
  for (const auto& c : data.cases) ++counts[c.symptom], ++counts[c.root_cause];
  const std::pair<const char*, const std::vector<taxonomy::Category>*> groups[] = {
      {"Symptoms", &tax().symptoms()}, {"Root causes", &tax().root_causes()}};
  double top = 1;  // the largest share in percent, here or in the study
  for (const auto& [name, categories] : groups) {
    for (const auto& c : *categories)
      top = std::max({top, 100.0 * counts[c.id] / n, 100.0 * c.study_count / study_n});
  }
  const double axis_top = std::ceil(top / tick_step(top)) * tick_step(top);
  const double left = 230, width = 440, row = 26, group_gap = 30;
  const double scale = width / axis_top;
  const size_t rows = tax().symptoms().size() + tax().root_causes().size();
  double axis_y = 24 + row * rows + group_gap * 2;
  int height = static_cast<int>(axis_y + 40);
  std::string s = svg_open(720, height, "Share of each category here and in the study");
  s += "<rect x=\"" + num(left) + "\" y=\"4\" width=\"10\" height=\"10\" fill=\"#0072B2\"/>" +
       text(left + 14, 13, "this dataset");
  s += "<rect x=\"" + num(left + 110) + "\" y=\"4\" width=\"10\" height=\"10\" fill=\"#BBBBBB\"/>" +
       text(left + 124, 13, "study");
  double y = 24;
  for (const auto& [name, categories] : groups) {
    // Each axis under its own heading, ruled off from the other: a symptom's share and a root cause's are
    // shares of different partitions of the same issues.
    s += "<line class=\"group-separator\" x1=\"10\" y1=\"" + num(y + 4) + "\" x2=\"" + num(left + width) +
         "\" y2=\"" + num(y + 4) + "\" stroke=\"#999\"/>";
    s += text(10, y + 20, name, "class=\"group-heading\" font-weight=\"bold\"");
    y += group_gap;
    for (const auto& c : *categories) {
      double ours = 100.0 * counts[c.id] / n, theirs = 100.0 * c.study_count / study_n;
      s += text(left - 6, y + 14, c.name, "text-anchor=\"end\"");
      s += rect("share-bar", left, y, std::max(ours * scale, 0.5), 10, "#0072B2",
                c.name + ": " + percent(counts[c.id], static_cast<long long>(n)) + " here");
      s += rect("share-bar", left, y + 11, std::max(theirs * scale, 0.5), 10, "#BBBBBB",
                c.name + ": " + percent(c.study_count, static_cast<long long>(study_n)) + " in the study");
      y += row;
    }
  }
  s += x_axis(left, axis_y, scale, axis_top, "%", "share of the labeled issues");
  return s + "</svg>";
}

}  // namespace faultline::reports
