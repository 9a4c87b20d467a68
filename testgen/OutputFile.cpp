//===- OutputFile.cpp - writing a generated file only when it changes -----===//
#include "OutputFile.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

namespace aot::testgen {

namespace {

bool sameContent(const std::string &path, const std::string &content) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  std::ostringstream old;
  old << in.rdbuf();
  return in.good() && old.str() == content;
}

Error cannotWrite(const std::string &path, int error) {
  return Error::message("cannot write '" + path + "': " + std::strerror(error));
}

} // namespace

Status writeIfChanged(const std::string &path, const std::string &content) {
  if (path == "-") {
    std::cout << content << std::flush;
    if (!std::cout)
      return Error::message("cannot write to standard output");
    return Status::ok();
  }
  if (sameContent(path, content))
    return Status::ok();
  std::string tmp = path + ".tmp" + std::to_string(::getpid());
  std::FILE *f = std::fopen(tmp.c_str(), "wb");
  if (!f)
    return cannotWrite(path, errno);
  bool ok = std::fwrite(content.data(), 1, content.size(), f) == content.size();
  int error = errno;
  if (std::fclose(f) != 0 && ok) {
    ok = false;
    error = errno;
  }
  if (ok && std::rename(tmp.c_str(), path.c_str()) != 0) {
    ok = false;
    error = errno;
  }
  if (!ok) {
    std::remove(tmp.c_str());
    return cannotWrite(path, error);
  }
  return Status::ok();
}

} // namespace aot::testgen
