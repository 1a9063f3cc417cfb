// The floating chat link: opens a WhatsApp chat with the shop's configured number, with a short message ready.
import { useT } from '@marque/i18n';
import { useShopIdentity } from '@marque/ui';

export function ChatLink() {
  const t = useT('shell');
  const { chatNumber, name } = useShopIdentity();
  if (!chatNumber) return null;
  const href = `https://wa.me/${chatNumber}?text=${encodeURIComponent(t('chat.message', { shop: name }))}`;
  return (
    <a className="chat-link" href={href} target="_blank" rel="noopener" aria-label={t('chat.label')}>
      <svg aria-hidden="true" width="28" height="28" viewBox="0 0 24 24" fill="currentColor">
        <path d="M12 2a10 10 0 0 0-8.6 15.1L2 22l5-1.3A10 10 0 1 0 12 2zm0 18.2c-1.5 0-3-.4-4.3-1.2l-.3-.2-3 .8.8-2.9-.2-.3A8.2 8.2 0 1 1 12 20.2zm4.5-6.1c-.2-.1-1.5-.7-1.7-.8-.2-.1-.4-.1-.6.1l-.8 1c-.1.2-.3.2-.5.1a6.7 6.7 0 0 1-3.3-2.9c-.2-.4.2-.4.7-1.3.1-.2 0-.3 0-.4l-.8-1.8c-.2-.5-.4-.4-.6-.4h-.5a1 1 0 0 0-.7.3 3 3 0 0 0-.9 2.2c0 1.3.9 2.5 1 2.7.1.2 1.8 2.8 4.4 3.9 1.6.7 2.3.8 3.1.6.5-.1 1.5-.6 1.7-1.2.2-.6.2-1.1.2-1.2-.1-.1-.3-.2-.5-.3z" />
      </svg>
    </a>
  );
}
