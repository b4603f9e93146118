// The frame every standalone SVG picture of flopscope shares (flame graph, roofline): the document with a
// white background, a bold title and grey subtitle lines at the top, and "note:" lines at the foot. One
// place, so the pictures read alike; all text XML-escaped here.
#pragma once

#include <string>
#include <vector>

namespace flopscope::graphs {

// "<svg ...>", the background, the title at y 20 and one subtitle line per entry from y 38, 16 px apart.
std::string svg_frame_start(int width, int height, const std::string& title,
                            const std::vector<std::string>& subtitles);

// One "note: ..." line per note from y `top`, 16 px apart (the height they take is 16 per note).
std::string svg_notes(const std::vector<std::string>& notes, int top);

}  // namespace flopscope::graphs
