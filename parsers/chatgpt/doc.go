// Package chatgpt reads the conversations.json of a ChatGPT data export
// (Settings → Data controls → Export data): an array of conversations, each a
// tree of message nodes in "mapping" whose "current_node" is the leaf the
// ChatGPT page shows. One conversation object given alone is read too.
//
// Reading order is the main thread, from the root to current_node (or, when
// the export names no leaf it has, the latest leaf of the largest tree),
// followed by every other branch whole (an edited prompt, a regenerated
// answer), each named by a number in Message.Branch and linked to its
// parent by ParentID. Every node's message appears exactly once; the null
// root placeholder is skipped; nodes whose parent is missing or that form a
// cycle of parents are kept on branches of their own.
//
// Content types: text and multimodal_text parts are the text, image and audio
// pointers becoming attachments named after the file of the same id in the
// message's metadata.attachments; code and execution_output,
// tether_browsing_display, tether_quote, sonic_webpage and system_error keep
// their text, a message addressed to a tool (recipient python, browser,
// dalle.text2im, …) being a tool call and a tool-role message a tool result,
// both named, with the text in Content only; thoughts go to Thinking;
// user_editable_context, model_editable_context, reasoning_recap, custom
// instructions, messages marked is_visually_hidden_from_conversation and
// empty ones are Hidden; an unknown content type keeps whatever text it has.
// status in_progress and finish_details max_tokens mark a message Partial,
// finish_details interrupted Cancelled.
//
// No real export can be shared, so the fixtures in testdata were written from
// the format as public importers and documents describe it, and cover:
// exports of mid and late 2023 (export-2023.json: a root that is an empty
// system message or a null message, conversation_id missing beside id,
// model_slug gpt-4 and gpt-4-code-interpreter, Code Interpreter code and
// execution_output with an image in metadata.aggregate_result, custom
// instructions in user_context_message_data, browsing with
// tether_browsing_display and tether_quote, DALL·E calls and their
// image_asset_pointer with metadata.dalle.prompt, file-service:// pointers,
// attachments with mimeType, a regenerated answer and an edited prompt);
// and exports of 2025 (export-2025.json, one line as ChatGPT writes it:
// client-created-root, hidden system and contextual-answers nodes,
// user_editable_context, model_editable_context, o3 thoughts and
// reasoning_recap, voice mode audio_transcription with sediment:// audio
// pointers, channel, system_error, in_progress and interrupted answers, a
// null title, create_time and current_node, children listing a node that is
// absent, a node whose parent is absent, a cycle of parents, an unknown
// content type and a null element in the array). single.json is one
// conversation object alone.
package chatgpt
