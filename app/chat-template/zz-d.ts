import { renderChatTemplate } from "#app/chat-template/render.ts";
for (const t of ["{{ tools is none }}", "a|b", "{{ bos_token is defined }}", "{{ eos_token }}"]) { console.log(t, JSON.stringify(renderChatTemplate({ template: t, messages: [], eosToken: "</s>" }))); }
