/**
 * The bodies of the About and Terms of Service / Privacy Policy pages, one per language:
 * prose reads better whole than cut into catalogue keys, and a change to one language is
 * a change to one block (About's blocks are its words, laid out by one `About`). English
 * keeps the spec's words.
 */

import type { ReactElement } from "react";
import { type Locale, locale } from "../../domain/i18n.ts";
import { type AboutText, LEAFLET, OSM, UNSPLASH } from "./legalParts.tsx";
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

const ABOUT: Record<Locale, AboutText> = {
  en: {
    intro:
      "is a location-based social and dating community for gay and lesbian adults, run in a volunteer style by its members.",
    valuesTitle: "Our values",
    values: [
      ["Community", "we are members helping members."],
      ["Safety", "your location, pictures and data are protected by design."],
      ["Enjoyment", "meeting people should be fun."],
      ["Responsibility", "we look after each other."],
      ["Evolution", "we keep improving, together."],
    ],
    volunteersTitle: "Volunteers",
    volunteers:
      "Members who help the community earn volunteer credits in the community games. A standard member has 0 volunteer credits; Pro or volunteer members get unlimited features.",
    thanksTitle: "Thanks",
    thanks: [
      ["Map data © ", OSM, " contributors."],
      ["Maps drawn with ", LEAFLET, "."],
      ["Stock photos from ", UNSPLASH, "."],
    ],
  },
  es: {
    intro:
      "es una comunidad social y de citas basada en la ubicación para personas adultas gais y lesbianas, llevada por sus propios miembros como voluntariado.",
    valuesTitle: "Nuestros valores",
    values: [
      ["Comunidad", "somos miembros que ayudan a otros miembros."],
      ["Seguridad", "tu ubicación, tus fotos y tus datos están protegidos desde el diseño."],
      ["Disfrute", "conocer gente tiene que ser divertido."],
      ["Responsabilidad", "nos cuidamos entre todos."],
      ["Evolución", "seguimos mejorando, juntos."],
    ],
    volunteersTitle: "Voluntariado",
    volunteers:
      "Los miembros que ayudan a la comunidad ganan créditos de voluntariado en los juegos de la comunidad. Un miembro estándar tiene 0 créditos; los miembros Pro o voluntarios tienen funciones ilimitadas.",
    thanksTitle: "Gracias",
    thanks: [
      ["Datos del mapa © colaboradores de ", OSM, "."],
      ["Mapas dibujados con ", LEAFLET, "."],
      ["Fotos de archivo de ", UNSPLASH, "."],
    ],
  },
  "pt-BR": {
    intro:
      "é uma comunidade social e de encontros baseada em localização para adultos gays e lésbicas, mantida de forma voluntária pelos próprios membros.",
    valuesTitle: "Nossos valores",
    values: [
      ["Comunidade", "somos membros ajudando membros."],
      ["Segurança", "sua localização, suas fotos e seus dados são protegidos desde o projeto."],
      ["Diversão", "conhecer gente tem que ser divertido."],
      ["Responsabilidade", "a gente cuida uns dos outros."],
      ["Evolução", "seguimos melhorando, juntos."],
    ],
    volunteersTitle: "Voluntários",
    volunteers:
      "Membros que ajudam a comunidade ganham créditos de voluntário nos jogos da comunidade. Um membro padrão tem 0 créditos; membros Pro ou voluntários têm recursos ilimitados.",
    thanksTitle: "Agradecimentos",
    thanks: [
      ["Dados do mapa © colaboradores do ", OSM, "."],
      ["Mapas desenhados com ", LEAFLET, "."],
      ["Fotos de banco de imagens do ", UNSPLASH, "."],
    ],
  },
  fr: ABOUT_FR,
  ar: ABOUT_AR,
};

/** The About page's words laid out: a first sentence, the values, the volunteers, the thanks. */
function About({ t, brand }: { t: AboutText; brand: string }) {
  return (
    <>
      <p>
        {brand} {t.intro}
      </p>
      <h2>{t.valuesTitle}</h2>
      <ul className="values">
        {t.values.map(([name, text]) => (
          <li key={name}>
            <strong>{name}</strong>: {text}
          </li>
        ))}
      </ul>
      <h2>{t.volunteersTitle}</h2>
      <p>{t.volunteers}</p>
      <h2>{t.thanksTitle}</h2>
      <ul>
        {t.thanks.map(([before, link, after], i) => (
          <li key={i}>
            {before}
            {link}
            {after}
          </li>
        ))}
      </ul>
    </>
  );
}

/** The About page's text after its heading, in the language in use. */
export function AboutBody({ brand }: { brand: string }) {
  const l = locale();
  // data-per-language: one whole body per language (the pseudo-locale's walk leaves it to tests/i18n_test.ts).
  return (
    <div className="contents" data-per-language="">
      <About t={ABOUT[l]} brand={brand} />
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
