#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <unordered_set>

#include "core/device.h"
#include "core/error.h"

using namespace lz;
using Catch::Matchers::Contains;

TEST_CASE("Device parses cpu, cuda and cuda:N", "[core]") {
  const Device cpu("cpu");
  CHECK(cpu.type() == DeviceType::CPU);
  CHECK(cpu.index() == 0);
  CHECK(cpu.is_cpu());
  CHECK_FALSE(cpu.is_cuda());

  const Device cuda("cuda");
  CHECK(cuda.type() == DeviceType::CUDA);
  CHECK(cuda.index() == 0);
  CHECK(cuda.is_cuda());

  const Device cuda3("cuda:3");
  CHECK(cuda3.type() == DeviceType::CUDA);
  CHECK(cuda3.index() == 3);

  CHECK(Device("cuda:17").index() == 17);
  CHECK(Device("cpu:0") == Device(DeviceType::CPU));
  CHECK(Device(std::string_view("cuda:2")) == Device(DeviceType::CUDA, 2));
  CHECK(Device(std::string("cuda:1")) == Device(kCUDA, 1));
}

TEST_CASE("Device rejects malformed strings with a ValueError naming them", "[core]") {
  const char* bad[] = {"", "gpu", "CPU", "cuda:", "cuda:x", "cuda:1x", " cuda", "cuda ", "cuda:1:2",
                       "cpu:", "cuda:+1", ":0", "cuda:99999999999999999999"};
  for (const char* spec : bad) {
    INFO("spec '" << spec << "'");
    CHECK_THROWS_AS(Device(spec), ValueError);
    CHECK_THROWS_WITH(Device(spec), Contains(std::string("'") + spec + "'"));
  }
}

TEST_CASE("Device rejects cpu:1 and out-of-range indices", "[core]") {
  CHECK_THROWS_AS(Device("cpu:1"), ValueError);
  CHECK_THROWS_WITH(Device("cpu:1"), Contains("cpu:1"));
  CHECK_THROWS_AS(Device(DeviceType::CPU, 1), ValueError);
  CHECK_THROWS_AS(Device(DeviceType::CUDA, -1), ValueError);
  CHECK_THROWS_AS(Device("cuda:-1"), ValueError);
  CHECK_THROWS_WITH(Device("cuda:-1"), Contains("'cuda:-1'"));
  CHECK_THROWS_WITH(Device("cuda:1024"), Contains("'cuda:1024'"));
  CHECK_THROWS_AS(Device(DeviceType::CUDA, 1024), ValueError);
  CHECK_THROWS_AS(Device("cuda:70000"), ValueError);  // would wrap an int16 index
  CHECK(Device(DeviceType::CUDA, 1023).index() == 1023);
}

TEST_CASE("Device str, streaming, equality and hashing", "[core]") {
  CHECK(Device("cpu").str() == "cpu");
  CHECK(Device("cuda").str() == "cuda:0");
  CHECK(Device("cuda:3").str() == "cuda:3");
  std::ostringstream os;
  os << Device("cuda:2") << " " << Device(kCPU) << " " << DeviceType::CUDA << " " << DeviceType::CPU;
  CHECK(os.str() == "cuda:2 cpu cuda cpu");
  CHECK(to_string(DeviceType::CUDA) == "cuda");
  CHECK(Device("cuda:1") != Device("cuda:2"));
  CHECK(Device("cuda:0") != Device("cpu"));
  CHECK(Device("cuda") == Device("cuda:0"));
  // str() parses back to the same device.
  for (const Device d : {Device("cpu"), Device("cuda:0"), Device("cuda:5")}) CHECK(Device(d.str()) == d);
  std::unordered_set<Device> set = {Device("cpu"), Device("cuda:0"), Device("cuda:1"), Device("cuda")};
  CHECK(set.size() == 3);
}
