"""Exports for a learning platform (LMS), after an LMS build (`lessonkit export FORMAT`): scorm.py writes a SCORM 1.2
package per lesson, moodle.py one question bank in Moodle XML. They format what the build made (the pages, and
render/questions.py's LessonPackage for each lesson); no rule of grading or formatting is written here again."""
