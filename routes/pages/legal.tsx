/**
 * The bodies of the About and Terms of Service / Privacy Policy pages, one per language:
 * prose reads better whole than cut into catalogue keys, and a change to one language is
 * a change to one block. English keeps the spec's words.
 */

import type { ReactElement } from "react";
import { type Locale, locale } from "../../domain/i18n.ts";
import { ABOUT_FR, LINKS_FR, TOS_FR } from "./legalFr.tsx";
import { ABOUT_AR, LINKS_AR, TOS_AR } from "./legalAr.tsx";

const LINKS: Record<Locale, { tos: string; pp: string; support: string; contact: string }> = {
  en: { tos: "Terms of Service", pp: "Privacy Policy", support: "Support", contact: "Contact Us" },
  es: { tos: "Términos del servicio", pp: "Política de privacidad", support: "Ayuda", contact: "Contáctanos" },
  "pt-BR": { tos: "Termos de Serviço", pp: "Política de Privacidade", support: "Suporte", contact: "Fale conosco" },
  fr: LINKS_FR,
  ar: LINKS_AR,
};

function Links({ l }: { l: Locale }) {
  const t = LINKS[l];
  return (
    <p className="links">
      <a href="/tos">{t.tos}</a> <a href="/tos#pp">{t.pp}</a> <a href="/support">{t.support}</a>{" "}
      <a href="/contactus">{t.contact}</a>
    </p>
  );
}

const ABOUT: Record<Locale, (brand: string) => ReactElement> = {
  en: (brand) => (
    <>
      <p>
        {brand}{" "}
        is a location-based social and dating community for gay and lesbian adults, run in a volunteer style by its
        members.
      </p>
      <h2>Our values</h2>
      <ul className="values">
        <li>
          <strong>Community</strong>: we are members helping members.
        </li>
        <li>
          <strong>Safety</strong>: your location, pictures and data are protected by design.
        </li>
        <li>
          <strong>Enjoyment</strong>: meeting people should be fun.
        </li>
        <li>
          <strong>Responsibility</strong>: we look after each other.
        </li>
        <li>
          <strong>Evolution</strong>: we keep improving, together.
        </li>
      </ul>
      <h2>Volunteers</h2>
      <p>
        Members who help the community earn volunteer credits in the community games. A standard member has 0 volunteer
        credits; Pro or volunteer members get unlimited features.
      </p>
      <h2>Thanks</h2>
      <ul>
        <li>
          Map data © <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors.
        </li>
        <li>
          Maps drawn with <a href="https://leafletjs.com">Leaflet</a>.
        </li>
        <li>
          Stock photos from <a href="https://unsplash.com">Unsplash</a>.
        </li>
      </ul>
    </>
  ),
  es: (brand) => (
    <>
      <p>
        {brand}{" "}
        es una comunidad social y de citas basada en la ubicación para personas adultas gais y lesbianas, llevada por
        sus propios miembros como voluntariado.
      </p>
      <h2>Nuestros valores</h2>
      <ul className="values">
        <li>
          <strong>Comunidad</strong>: somos miembros que ayudan a otros miembros.
        </li>
        <li>
          <strong>Seguridad</strong>: tu ubicación, tus fotos y tus datos están protegidos desde el diseño.
        </li>
        <li>
          <strong>Disfrute</strong>: conocer gente tiene que ser divertido.
        </li>
        <li>
          <strong>Responsabilidad</strong>: nos cuidamos entre todos.
        </li>
        <li>
          <strong>Evolución</strong>: seguimos mejorando, juntos.
        </li>
      </ul>
      <h2>Voluntariado</h2>
      <p>
        Los miembros que ayudan a la comunidad ganan créditos de voluntariado en los juegos de la comunidad. Un miembro
        estándar tiene 0 créditos; los miembros Pro o voluntarios tienen funciones ilimitadas.
      </p>
      <h2>Gracias</h2>
      <ul>
        <li>
          Datos del mapa © colaboradores de <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>.
        </li>
        <li>
          Mapas dibujados con <a href="https://leafletjs.com">Leaflet</a>.
        </li>
        <li>
          Fotos de archivo de <a href="https://unsplash.com">Unsplash</a>.
        </li>
      </ul>
    </>
  ),
  "pt-BR": (brand) => (
    <>
      <p>
        {brand}{" "}
        é uma comunidade social e de encontros baseada em localização para adultos gays e lésbicas, mantida de forma
        voluntária pelos próprios membros.
      </p>
      <h2>Nossos valores</h2>
      <ul className="values">
        <li>
          <strong>Comunidade</strong>: somos membros ajudando membros.
        </li>
        <li>
          <strong>Segurança</strong>: sua localização, suas fotos e seus dados são protegidos desde o projeto.
        </li>
        <li>
          <strong>Diversão</strong>: conhecer gente tem que ser divertido.
        </li>
        <li>
          <strong>Responsabilidade</strong>: a gente cuida uns dos outros.
        </li>
        <li>
          <strong>Evolução</strong>: seguimos melhorando, juntos.
        </li>
      </ul>
      <h2>Voluntários</h2>
      <p>
        Membros que ajudam a comunidade ganham créditos de voluntário nos jogos da comunidade. Um membro padrão tem 0
        créditos; membros Pro ou voluntários têm recursos ilimitados.
      </p>
      <h2>Agradecimentos</h2>
      <ul>
        <li>
          Dados do mapa © colaboradores do <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>.
        </li>
        <li>
          Mapas desenhados com <a href="https://leafletjs.com">Leaflet</a>.
        </li>
        <li>
          Fotos de banco de imagens do <a href="https://unsplash.com">Unsplash</a>.
        </li>
      </ul>
    </>
  ),
  fr: ABOUT_FR,
  ar: ABOUT_AR,
};

/** The About page's text after its heading, in the language in use. */
export function AboutBody({ brand }: { brand: string }) {
  const l = locale();
  // data-per-language: one whole body per language (the pseudo-locale's walk leaves it to tests/i18n_test.ts).
  return (
    <div className="contents" data-per-language="">
      {ABOUT[l](brand)}
      <Links l={l} />
    </div>
  );
}

const TOS: Record<Locale, () => ReactElement> = {
  en: () => (
    <>
      <h1>Terms of Service</h1>
      <ol>
        <li>You must be 18 or older to use this service. No material involving minors, ever.</li>
        <li>No illegal activity, harassment, spam or malware.</li>
        <li>
          You keep ownership of the content you post. You grant us a license to host, store and show it to other members
          as the service requires.
        </li>
        <li>Violations lead to suspension or termination of your account.</li>
        <li>Disputes are settled by binding arbitration under the laws of Arizona.</li>
      </ol>
      <h2 id="pp">Privacy Policy</h2>
      <ul>
        <li>Your data is processed in the USA.</li>
        <li>We do not sell your personal data.</li>
        <li>You may access, update or delete your data at any time from Account settings, or by contacting us.</li>
        <li>
          Other members never see your exact location: they see an approximate position inside a grid cell of about 1
          km. Picture metadata (such as GPS in photos) is removed on upload.
        </li>
        <li>
          Download my data (Account settings) mails you a link to one ZIP of everything we store about you. The link
          works once, for 24 hours, and only while you are logged in.
        </li>
        <li>
          Delete my account (Account settings) deletes your profile, pictures, likes, notes, the messages you sent, your
          places and everything else about you, within minutes. Members you wrote to keep the messages they sent you,
          shown as sent to a deleted member. Two things are kept: the moderators' audit log (who did what, when and
          why), and, if your account was suspended or banned, a one-way hash of your email address, so that a ban cannot
          be evaded by registering again.
        </li>
      </ul>
    </>
  ),
  es: () => (
    <>
      <h1>Términos del servicio</h1>
      <ol>
        <li>Debes tener 18 años o más para usar este servicio. Nunca, bajo ningún concepto, material con menores.</li>
        <li>Nada de actividades ilegales, acoso, spam ni malware.</li>
        <li>
          Sigues siendo dueño del contenido que publicas. Nos concedes una licencia para alojarlo, guardarlo y mostrarlo
          a otros miembros según lo requiera el servicio.
        </li>
        <li>Las infracciones llevan a la suspensión o al cierre de tu cuenta.</li>
        <li>Las disputas se resuelven mediante arbitraje vinculante según las leyes de Arizona.</li>
      </ol>
      <p className="muted">Si hay diferencias entre esta traducción y el texto en inglés, prevalece el inglés.</p>
      <h2 id="pp">Política de privacidad</h2>
      <ul>
        <li>Tus datos se procesan en los Estados Unidos.</li>
        <li>No vendemos tus datos personales.</li>
        <li>
          Puedes consultar, actualizar o borrar tus datos en cualquier momento desde la Configuración de la cuenta, o
          escribiéndonos.
        </li>
        <li>
          Los demás miembros nunca ven tu ubicación exacta: ven una posición aproximada dentro de una celda de
          cuadrícula de alrededor de 1 km. Los metadatos de las fotos (como el GPS) se eliminan al subirlas.
        </li>
        <li>
          Descargar mis datos (Configuración de la cuenta) te envía por correo un enlace a un único ZIP con todo lo que
          guardamos sobre ti. El enlace funciona una vez, durante 24 horas, y solo con la sesión iniciada.
        </li>
        <li>
          Borrar mi cuenta (Configuración de la cuenta) borra tu perfil, fotos, me gusta, notas, los mensajes que
          enviaste, tus lugares y todo lo demás sobre ti, en cuestión de minutos. Los miembros a quienes escribiste
          conservan los mensajes que ellos te enviaron, mostrados como enviados a un miembro eliminado. Se guardan dos
          cosas: el registro de auditoría de los moderadores (quién hizo qué, cuándo y por qué) y, si tu cuenta fue
          suspendida o vetada, un hash de un solo sentido de tu correo, para que no se pueda eludir un veto volviendo a
          registrarse.
        </li>
      </ul>
    </>
  ),
  "pt-BR": () => (
    <>
      <h1>Termos de Serviço</h1>
      <ol>
        <li>Você precisa ter 18 anos ou mais para usar este serviço. Nenhum material envolvendo menores, nunca.</li>
        <li>Nada de atividades ilegais, assédio, spam ou malware.</li>
        <li>
          O conteúdo que você publica continua sendo seu. Você nos concede uma licença para hospedá-lo, armazená-lo e
          mostrá-lo a outros membros conforme o serviço exigir.
        </li>
        <li>Violações levam à suspensão ou ao encerramento da sua conta.</li>
        <li>Disputas são resolvidas por arbitragem vinculante sob as leis do Arizona.</li>
      </ol>
      <p className="muted">Se houver diferença entre esta tradução e o texto em inglês, vale o inglês.</p>
      <h2 id="pp">Política de Privacidade</h2>
      <ul>
        <li>Seus dados são processados nos Estados Unidos.</li>
        <li>Não vendemos seus dados pessoais.</li>
        <li>
          Você pode acessar, atualizar ou apagar seus dados a qualquer momento nas Configurações da conta, ou falando
          com a gente.
        </li>
        <li>
          Outros membros nunca veem sua localização exata: eles veem uma posição aproximada dentro de uma célula de
          grade de cerca de 1 km. Os metadados das fotos (como o GPS) são removidos no envio.
        </li>
        <li>
          Baixar meus dados (Configurações da conta) envia para o seu e-mail um link para um único ZIP com tudo o que
          guardamos sobre você. O link funciona uma vez, por 24 horas, e só com você logado.
        </li>
        <li>
          Excluir minha conta (Configurações da conta) apaga seu perfil, fotos, curtidas, notas, as mensagens que você
          enviou, seus lugares e tudo mais sobre você, em poucos minutos. Os membros com quem você conversou mantêm as
          mensagens que eles te enviaram, mostradas como enviadas a um membro excluído. Duas coisas são mantidas: o
          registro de auditoria dos moderadores (quem fez o quê, quando e por quê) e, se sua conta foi suspensa ou
          banida, um hash de mão única do seu e-mail, para que um banimento não possa ser driblado com um novo cadastro.
        </li>
      </ul>
    </>
  ),
  fr: TOS_FR,
  ar: TOS_AR,
};

/** The Terms of Service and Privacy Policy, in the language in use. */
export function TosBody() {
  return <div className="contents" data-per-language="">{TOS[locale()]()}</div>;
}
