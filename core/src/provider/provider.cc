// SPDX-License-Identifier: MIT
// The endpoint of each provider; see provider.h.
#include "provider/provider.h"

namespace agentctx {

std::string_view ProviderEndpoint(Provider provider) {
  switch (provider) {
    case Provider::kChat:
      return "chat/completions";
    case Provider::kAnthropic:
      return "messages";
    case Provider::kResponses:
      break;
  }
  return "responses";
}

}  // namespace agentctx
