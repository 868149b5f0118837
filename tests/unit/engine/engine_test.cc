// SPDX-License-Identifier: MIT
#include "agentctx/engine.h"

#include <gtest/gtest.h>

#include "agentctx/wire_enums.h"

namespace agentctx {
namespace {

TEST(Engine, ReportsVersionInAnEnvelope) {
  Engine engine;
  EXPECT_EQ(engine.Call(0, "version", "{}"),
            std::string(R"({"v":1,"ok":true,"value":{"version":")") +
                std::string(Engine::Version()) + "\"}}");
}

TEST(Engine, EchoesConfigCanonically) {
  Engine engine;
  EXPECT_EQ(engine.Call(0, "config.echo", R"({"z":1,"a":{"y":null,"b":"é"}})"),
            std::string(R"({"v":1,"ok":true,"value":{"config":{"a":{"b":"é","y":null},"z":1},)") +
                R"("version":")" + std::string(Engine::Version()) + "\"}}");
}

TEST(Engine, InvalidJsonIsAnErrorEnvelope) {
  Engine engine;
  EXPECT_EQ(
      engine.Call(0, "config.echo", "{nope"),
      R"({"v":1,"ok":false,"error":{"code":"invalid_json","message":"invalid JSON at byte 1: Missing a name for object member.","details":{"offset":"1"}}})");
  EXPECT_EQ(
      engine.Call(0, "config.echo", "[1]"),
      R"({"v":1,"ok":false,"error":{"code":"invalid_input","message":"config must be a JSON object"}})");
}

TEST(Engine, UnknownMethodsAndHandles) {
  Engine engine;
  EXPECT_NE(engine.Call(0, "nope", "{}").find("\"unknown_method\""), std::string::npos);
  EXPECT_NE(engine.Call(42, "submit", "{}").find("\"bad_handle\""), std::string::npos);
}

TEST(Engine, HandlesAreNeverReused) {
  Engine engine;
  std::uint32_t a = engine.Open();
  engine.Close(a);
  std::uint32_t b = engine.Open();
  EXPECT_NE(a, b);
  EXPECT_NE(engine.Call(a, "submit", "{}").find("\"bad_handle\""), std::string::npos);
  EXPECT_EQ(engine.OpenHandles(), 1u);
  engine.Close(b);
  EXPECT_EQ(engine.Call(0, "stats", "{}"), R"({"v":1,"ok":true,"value":{"open_handles":0}})");
}

// Every method core/protocol.json lists is implemented: none answers unknown_method.
TEST(ProtocolDescription, EveryDescribedMethodIsImplemented) {
  Engine engine;
  for (std::string_view method : WireTable<EngineMethod>::kValues) {
    std::string out = engine.Call(0, method, "{}");
    EXPECT_EQ(out.find("\"unknown_method\""), std::string::npos) << method << ": " << out;
  }
  const std::uint32_t handle = engine.Open();
  for (std::string_view method : WireTable<SessionMethod>::kValues) {
    std::string out = engine.Call(handle, method, "{}");
    EXPECT_EQ(out.find("\"unknown_method\""), std::string::npos) << method << ": " << out;
  }
  EXPECT_NE(engine.Call(handle, "no.such", "{}").find("\"unknown_method\""), std::string::npos);
}

}  // namespace
}  // namespace agentctx
