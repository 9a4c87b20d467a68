//===- Layout.cpp - line breaking for generated C++ -----------------------===//
#include "Layout.h"

#include <optional>
#include <vector>

namespace aot::testgen {

namespace {

using Lines = std::vector<std::string>;

Lines splitLines(std::string_view text) {
  Lines lines;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) {
      if (pos < text.size())
        lines.emplace_back(text.substr(pos));
      break;
    }
    lines.emplace_back(text.substr(pos, nl - pos));
    pos = nl + 1;
  }
  return lines;
}

size_t indentOf(std::string_view line) {
  size_t n = line.find_first_not_of(' ');
  return n == std::string_view::npos ? line.size() : n;
}

/// A `//` or `///` comment broken at spaces into lines of at most `limit`
/// columns, each with the same marker.
Lines wrapComment(const std::string &line, size_t limit) {
  size_t indent = indentOf(line);
  size_t marker = line.find_first_not_of('/', indent);
  if (marker == std::string::npos || line[marker] != ' ')
    return {line};
  std::string prefix = line.substr(0, marker + 1);
  std::string_view rest = std::string_view(line).substr(marker + 1);
  Lines out;
  while (prefix.size() + rest.size() > limit) {
    size_t room = limit - prefix.size();
    size_t space = rest.rfind(' ', room);
    if (space == std::string_view::npos || space == 0)
      space = rest.find(' ', room); // one word longer than the line
    if (space == std::string_view::npos)
      break;
    out.push_back(prefix + std::string(rest.substr(0, space)));
    rest = rest.substr(space + 1);
  }
  out.push_back(prefix + std::string(rest));
  return out;
}

/// A statement `[LHS = ]CALLEE(ARGS);` taken apart, or nullopt for any
/// other shape.
struct Call {
  size_t indent;
  std::string lhs;    ///< "auto x = " or empty
  std::string callee; ///< up to and including '('
  std::vector<std::string> args;
};

/// Positions in `s` at bracket depth 0, outside string and character
/// literals, reported to `visit(pos)`; false when brackets do not balance.
template <typename F> bool scanTopLevel(std::string_view s, F visit) {
  int depth = 0;
  char quote = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (quote) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '(' || c == '[' || c == '{') {
      if (depth == 0)
        visit(i);
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      if (--depth < 0)
        return false;
    } else if (depth == 0) {
      visit(i);
    }
  }
  return depth == 0 && !quote;
}

std::optional<Call> parseCall(const std::string &line) {
  Call call;
  call.indent = indentOf(line);
  std::string_view body = std::string_view(line).substr(call.indent);
  if (body.size() < 3 || body.substr(body.size() - 2) != ");")
    return std::nullopt;
  size_t assign = std::string_view::npos, open = std::string_view::npos;
  bool balanced = scanTopLevel(body, [&](size_t i) {
    if (assign == std::string_view::npos && open == std::string_view::npos &&
        body.substr(i, 3) == " = ")
      assign = i;
    if (open == std::string_view::npos && body[i] == '(')
      open = i;
  });
  if (!balanced || open == std::string_view::npos)
    return std::nullopt;
  size_t calleeStart = assign == std::string_view::npos ? 0 : assign + 3;
  if (open < calleeStart)
    return std::nullopt;
  call.lhs = std::string(body.substr(0, calleeStart));
  call.callee = std::string(body.substr(calleeStart, open + 1 - calleeStart));
  // The parenthesis opened at `open` must be the one closed at the end.
  std::string_view inner = body.substr(open + 1, body.size() - open - 3);
  size_t start = 0;
  bool ok = scanTopLevel(inner, [&](size_t i) {
    if (inner[i] == ',') {
      call.args.emplace_back(inner.substr(start, i - start));
      start = i + 1;
      while (start < inner.size() && inner[start] == ' ')
        ++start;
    }
  });
  if (!ok)
    return std::nullopt;
  if (start < inner.size())
    call.args.emplace_back(inner.substr(start));
  return call;
}

/// `first` followed by the arguments packed greedily into lines starting
/// at column `column` (the first line continues `first`).
Lines packArguments(const std::string &first, const Call &call, size_t column,
                    size_t limit) {
  Lines out{first};
  bool lineStart = true;
  for (size_t i = 0; i < call.args.size(); ++i) {
    std::string piece = call.args[i] + (i + 1 == call.args.size() ? ");" : ",");
    std::string &cur = out.back();
    if (lineStart) {
      cur += piece;
      lineStart = false;
    } else if (cur.size() + 1 + piece.size() <= limit) {
      cur += " " + piece;
    } else {
      out.push_back(std::string(column, ' ') + piece);
    }
  }
  if (call.args.empty())
    out.back() += ");";
  return out;
}

bool fits(const Lines &lines, size_t limit) {
  for (const std::string &l : lines)
    if (l.size() > limit)
      return false;
  return true;
}

/// The right-hand side `callee(args);` starting at column `indent`, its
/// first line prefixed by `head` (indentation and any `lhs = `): either
/// aligned after the parenthesis or broken after it, whichever takes fewer
/// lines (aligned on a tie), as clang-format weighs them. Empty when
/// neither fits.
Lines wrapArguments(const std::string &head, const Call &call, size_t indent,
                    size_t limit) {
  std::string first = head + call.callee;
  Lines aligned = packArguments(first, call, first.size(), limit);
  Lines broken{first};
  if (call.args.empty()) {
    broken.back() += ");";
  } else {
    std::string continuation(indent + 4, ' ');
    Lines rest = packArguments(continuation, call, continuation.size(), limit);
    broken.insert(broken.end(), rest.begin(), rest.end());
  }
  bool alignedFits = fits(aligned, limit), brokenFits = fits(broken, limit);
  if (alignedFits && (!brokenFits || aligned.size() <= broken.size()))
    return aligned;
  if (brokenFits)
    return broken;
  return {};
}

Lines wrapCall(const std::string &line, size_t limit) {
  std::optional<Call> call = parseCall(line);
  if (!call)
    return {line};
  std::string indent(call->indent, ' ');
  std::string continuation(call->indent + 4, ' ');
  std::string rhs = line.substr(call->indent + call->lhs.size());
  std::string lhs = call->lhs.empty()
                        ? std::string()
                        : indent + call->lhs.substr(0, call->lhs.size() - 1);
  // Of the layouts that fit, the one with the fewest lines; on a tie, the
  // first of: the right-hand side whole after the '=', the arguments
  // wrapped after `lhs = callee(`, the right-hand side after the '=' with
  // its arguments wrapped.
  std::vector<Lines> candidates;
  if (!call->lhs.empty() && continuation.size() + rhs.size() <= limit)
    candidates.push_back({lhs, continuation + rhs});
  candidates.push_back(
      wrapArguments(indent + call->lhs, *call, call->indent, limit));
  if (!call->lhs.empty()) {
    Lines after = wrapArguments(continuation, *call, call->indent + 4, limit);
    if (!after.empty()) {
      after.insert(after.begin(), lhs);
      candidates.push_back(std::move(after));
    }
  }
  const Lines *best = nullptr;
  for (const Lines &c : candidates)
    if (!c.empty() && (!best || c.size() < best->size()))
      best = &c;
  if (best)
    return *best;
  // Nothing fits (a string literal longer than a line): break after the
  // parenthesis anyway, which keeps the overflow to that literal.
  Lines broken{indent + call->lhs + call->callee};
  Lines rest = packArguments(continuation, *call, continuation.size(), limit);
  broken.insert(broken.end(), rest.begin(), rest.end());
  return broken;
}

bool isBlank(const std::string &line) {
  return line.find_first_not_of(' ') == std::string::npos;
}

bool startsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

/// Whether a blank line may follow `line`: not at the start of a block,
/// except a namespace's (clang-format keeps those).
bool blankMayFollow(const std::string &line) {
  return line.back() != '{' || startsWith(line, "namespace");
}

/// Whether a blank line may precede `line`: not at the end of a block,
/// except a namespace's.
bool blankMayPrecede(const std::string &line) {
  return line[indentOf(line)] != '}' || startsWith(line, "} // namespace");
}

} // namespace

std::string layOut(std::string_view text, size_t limit) {
  Lines wrapped;
  for (const std::string &line : splitLines(text)) {
    Lines pieces{line};
    if (line.size() > limit) {
      std::string_view body = std::string_view(line).substr(indentOf(line));
      pieces = body.substr(0, 2) == "//" ? wrapComment(line, limit)
                                         : wrapCall(line, limit);
    }
    for (std::string &piece : pieces)
      wrapped.push_back(std::move(piece));
  }

  std::string out;
  // No blank line at the top of the file either.
  bool pendingBlank = false, blankAllowed = false;
  for (const std::string &line : wrapped) {
    if (isBlank(line)) {
      pendingBlank = blankAllowed;
      continue;
    }
    if (pendingBlank && blankMayPrecede(line))
      out += "\n";
    out += line + "\n";
    pendingBlank = false;
    blankAllowed = blankMayFollow(line);
  }
  return out;
}

} // namespace aot::testgen
