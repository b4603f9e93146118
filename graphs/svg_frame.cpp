#include "graphs/svg_frame.h"

#include <fmt/format.h>

#include "db/model/text_escape.h"

namespace flopscope::graphs {

std::string svg_frame_start(int width, int height, const std::string& title,
                            const std::vector<std::string>& subtitles) {
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
      "<text x=\"8\" y=\"20\" font-size=\"15\" font-weight=\"bold\">{2}</text>\n",
      width, height, xml_escape(title));
  int y = 38;
  for (const std::string& line : subtitles) {
    svg += fmt::format("<text x=\"8\" y=\"{}\" fill=\"#444444\">{}</text>\n", y, xml_escape(line));
    y += 16;
  }
  return svg;
}

std::string svg_notes(const std::vector<std::string>& notes, int top) {
  std::string svg;
  int y = top;
  for (const std::string& note : notes) {
    svg += fmt::format("<text x=\"8\" y=\"{}\" fill=\"#7a4b00\">note: {}</text>\n", y, xml_escape(note));
    y += 16;
  }
  return svg;
}

}  // namespace flopscope::graphs
